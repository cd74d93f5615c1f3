//go:build tools

// Package tools pins Temporal's server and its SQL schema tool, which stack/install.ts builds
// with `go build`. go.mod holds exactly the versions the temporal CLI v1.5.1 builds its dev
// server from (go.temporal.io/server v1.29.1 and the same dependencies), so this build reuses
// the packages that the CLI's build already compiled into Go's build cache.
package tools

import (
	_ "go.temporal.io/server/cmd/server"
	_ "go.temporal.io/server/cmd/tools/sql"
)
