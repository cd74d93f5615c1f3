//go:build tools

// Package tools pins Crossplane's community AWS provider (provider-aws), which the
// benchmark runs side by side with Chronoplane; stack/peers.ts builds its
// ./cmd/provider with `go build`.
package tools

import (
	_ "github.com/crossplane-contrib/provider-aws/cmd/provider"
)
