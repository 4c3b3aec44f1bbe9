module promptscope/tools/modelfile-goldens

go 1.26

require (
	golang.org/x/mod v0.30.0
	golang.org/x/text v0.30.0
)
