module promptscope/tools/modelfile-goldens

go 1.26

require golang.org/x/text v0.30.0
