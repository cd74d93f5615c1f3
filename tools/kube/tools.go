//go:build tools

// Package tools pins the Kubernetes commands that scripts/stack builds with `go build`.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
