package gin

// From gin utils.go:53-54 (v1.10.0), verbatim.
// H is a shortcut for map[string]any
type H map[string]any
