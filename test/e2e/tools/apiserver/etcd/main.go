// etcd as a binary, at the server version k8s.io/kubernetes itself pins, so that the
// e2e tier needs no downloaded release.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
