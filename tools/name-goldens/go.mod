module promptscope/tools/name-goldens

go 1.26

require github.com/ollama/ollama v0.33.0-rc2
