module unicodetables

go 1.27
