module gofmtcases

go 1.22
