module github.com/ollama/ollama

go 1.26.0

require (
	github.com/bahlo/generic-list-go v0.2.0
	github.com/buger/jsonparser v1.1.1
	github.com/google/uuid v1.6.0
	github.com/mailru/easyjson v0.7.7
	github.com/wk8/go-ordered-map/v2 v2.1.8
	golang.org/x/crypto v0.43.0
	golang.org/x/sync v0.17.0
	gopkg.in/yaml.v3 v3.0.1
)
