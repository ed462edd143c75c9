// Package zookeeper is the ZooKeeper lock design: an ensemble zk-1…zk-N
// running Zab with its sessions and znode tree, and clients running
// Curator's InterProcessMutex recipe over ZooKeeper's client connection. Its
// sim.Mode is the value Mode, which the list of designs (package designs)
// installs at start. Its figures and their sources are in zookeeper.go;
// ARCHITECTURE.md is the map of the whole program.
package zookeeper
