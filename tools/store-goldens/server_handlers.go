// Ollama v0.33.0-rc2's HTTP handlers for /api/blobs, /api/show and
// /api/tags, adapted from a gin.Context to bytes in and bytes out. gin's
// c.JSON(status, obj) writes json.Marshal(obj) (gin v1.10.0
// render/json.go WriteJSON; encoding/json, so <, > and & come out as
// \u003c, \u003e and \u0026); cJSON below does the same.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/ollama/ollama/api"
	internalcloud "github.com/ollama/ollama/internal/cloud"
	"github.com/ollama/ollama/manifest"
	"github.com/ollama/ollama/types/errtypes"
	"github.com/ollama/ollama/types/model"
)

// Server holds what the handlers here use of server.Server
// (server/routes.go:97-103): the model caches (server/model_caches.go:5-10,
// the show and list caches only), made as newModelCaches makes them.
type Server struct {
	modelCaches *modelCaches
}

type modelCaches struct {
	show      *modelShowCache
	modelList *modelListCache
}

func newServer() *Server {
	return &Server{modelCaches: &modelCaches{show: newModelShowCache(), modelList: newModelListCache()}}
}

// reply is one HTTP answer: the status and the body bytes. For a request
// that Ollama proxies to ollama.com, Proxy holds the request it would send
// instead (the recorder is offline, and the answer is ollama.com's).
type reply struct {
	Status int
	Body   []byte
	Proxy  *proxied
}

type proxied struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Body   string `json:"body"`
}

func cJSON(status int, obj any) reply {
	b, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return reply{Status: status, Body: b}
}

// From ollama server/cloud_proxy.go:29,40 (v0.33.0-rc2): the default base
// URL (its init overrides it from OLLAMA_CLOUD_BASE_URL, which the
// recorder does not set).
const defaultCloudProxyBaseURL = "https://ollama.com:443"

var cloudProxyBaseURL = defaultCloudProxyBaseURL

// From ollama server/cloud_proxy.go:159-174 and 180-215 (v0.33.0-rc2),
// adapted: proxyCloudJSONRequest, proxyCloudJSONRequestWithPath and
// proxyCloudRequestWithPath up to the point where the request is signed
// with the user's key (~/.ollama/id_ed25519) and sent to ollama.com; this
// returns the request instead (the path is c.Request.URL.Path, the query
// of /api/show is empty).
func proxyCloudJSONRequest(path string, payload any, disabledOperation string) reply {
	body, err := json.Marshal(payload)
	if err != nil {
		return cJSON(http.StatusInternalServerError, ginH{"error": err.Error()})
	}

	if disabled, _ := internalcloud.Status(); disabled {
		return cJSON(http.StatusForbidden, ginH{"error": internalcloud.DisabledError(disabledOperation)})
	}

	baseURL, err := url.Parse(cloudProxyBaseURL)
	if err != nil {
		return cJSON(http.StatusInternalServerError, ginH{"error": err.Error()})
	}

	targetURL := baseURL.ResolveReference(&url.URL{
		Path: path,
	})

	return reply{Proxy: &proxied{Method: http.MethodPost, URL: targetURL.String(), Body: string(body)}}
}

// From ollama server/routes.go:66-75 (v0.33.0-rc2), adapted: returns the
// reply instead of writing it (c.JSON -> cJSON, gin.H -> ginH).
func writeModelRefParseError(err error, fallbackStatus int, fallbackMessage string) reply {
	switch {
	case errors.Is(err, errConflictingModelSource):
		return cJSON(http.StatusBadRequest, ginH{"error": err.Error()})
	case errors.Is(err, model.ErrUnqualifiedName):
		return cJSON(http.StatusBadRequest, ginH{"error": errtypes.InvalidModelNameErrMsg})
	default:
		return cJSON(fallbackStatus, ginH{"error": fallbackMessage})
	}
}

// From ollama server/routes.go:1300-1394 (v0.33.0-rc2), adapted: the
// request body and User-Agent in, the reply out (c.ShouldBindJSON ->
// shouldBindJSON, c.AbortWithStatusJSON / c.JSON + return -> return cJSON,
// gin.H -> ginH). The cloud branch: a fresh server's cloud show cache is
// empty (its hydration fetches ollama.com's tags), so GetCloudSWR misses
// and the request is proxied; proxyCloudJSONRequest returns it.
func (s *Server) ShowHandler(body []byte, userAgent string) reply {
	var req api.ShowRequest
	err := shouldBindJSON(body, &req)
	switch {
	case errors.Is(err, io.EOF):
		return cJSON(http.StatusBadRequest, ginH{"error": "missing request body"})
	case err != nil:
		return cJSON(http.StatusBadRequest, ginH{"error": err.Error()})
	}

	if req.Model != "" {
		// noop
	} else if req.Name != "" {
		req.Model = req.Name
	} else {
		return cJSON(http.StatusBadRequest, ginH{"error": "model is required"})
	}
	requestedModel := req.Model

	modelRef, err := parseAndValidateModelRef(req.Model)
	if err != nil {
		return writeModelRefParseError(err, http.StatusBadRequest, err.Error())
	}

	if modelRef.Source == modelSourceCloud {
		req.Model = modelRef.Base
		if modelShowCacheable(req) && s.modelCaches != nil && s.modelCaches.show != nil {
			if disabled, _ := internalcloud.Status(); disabled {
				return cJSON(http.StatusForbidden, ginH{"error": internalcloud.DisabledError(cloudErrRemoteModelDetailsUnavailable)})
			}
			// s.modelCaches.show.GetCloudSWR(ctx, req): empty, see above.
		}
		return proxyCloudJSONRequest("/api/show", req, cloudErrRemoteModelDetailsUnavailable)
	}

	name := modelRef.Name
	name, err = getExistingName(name)
	if err != nil {
		return cJSON(http.StatusBadRequest, ginH{"error": err.Error()})
	}
	req.Model = name.DisplayShortest()

	var resp *api.ShowResponse
	if modelShowCacheable(req) && s.modelCaches != nil && s.modelCaches.show != nil {
		resp, err = s.modelCaches.show.GetLocal(req)
	} else {
		resp, err = GetModelInfo(req)
	}
	if err != nil {
		var statusErr api.StatusError
		switch {
		case os.IsNotExist(err):
			return cJSON(http.StatusNotFound, ginH{"error": fmt.Sprintf("model '%s' not found", req.Model)})
		case errors.As(err, &statusErr):
			return cJSON(statusErr.StatusCode, ginH{"error": statusErr.ErrorMessage})
		case err.Error() == errtypes.InvalidModelNameErrMsg:
			return cJSON(http.StatusBadRequest, ginH{"error": err.Error()})
		default:
			return cJSON(http.StatusInternalServerError, ginH{"error": err.Error()})
		}
	}

	if modelRef.Source == modelSourceLocal && resp.RemoteHost != "" {
		return cJSON(http.StatusNotFound, ginH{"error": fmt.Sprintf("model '%s' not found", modelRef.Original)})
	}

	if strings.HasPrefix(userAgent, copilotChatUserAgentPrefix) {
		if resp.ModelInfo == nil {
			resp.ModelInfo = map[string]any{}
		}
		// Copilot Chat prefers `general.basename`, but this is usually not what
		// users are familiar with, so echo back the requested model name.
		resp.ModelInfo["general.basename"] = requestedModel
	}

	return cJSON(http.StatusOK, resp)
}

// From ollama server/routes.go:1632-1645 (v0.33.0-rc2), adapted: returns
// the reply (c.Request.Context() -> ctx).
func (s *Server) ListHandler(ctx context.Context) reply {
	if s.modelCaches == nil || s.modelCaches.modelList == nil {
		return cJSON(http.StatusInternalServerError, ginH{"error": "model list cache unavailable"})
	}

	models, err := s.modelCaches.modelList.List(ctx)
	if err != nil {
		return cJSON(http.StatusInternalServerError, ginH{"error": err.Error()})
	}

	return cJSON(http.StatusOK, api.ListResponse{Models: models})
}

// From ollama server/routes.go:1703-1753 (v0.33.0-rc2), adapted: the
// digest and body in, the status out (intermediateBlobs, which only
// safetensors conversion fills, is left out).
func (s *Server) CreateBlobHandler(digest string, body io.Reader) (int, error) {
	path, err := manifest.BlobsPath(digest)
	if err != nil {
		return http.StatusBadRequest, err
	}

	_, err = os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		// noop
	case err != nil:
		return http.StatusInternalServerError, err
	default:
		return http.StatusOK, nil
	}

	layer, err := manifest.NewLayer(body, "")
	if err != nil {
		return http.StatusInternalServerError, err
	}

	if layer.Digest != digest {
		return http.StatusBadRequest, fmt.Errorf("digest mismatch, expected %q, got %q", digest, layer.Digest)
	}

	return http.StatusCreated, nil
}
