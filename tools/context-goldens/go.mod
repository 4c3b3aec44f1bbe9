module promptscope/tools/context-goldens

go 1.26
