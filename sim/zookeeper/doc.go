// Package zookeeper is the ZooKeeper lock design: an ensemble zk-1…zk-N
// running Zab with its sessions and znode tree, and clients running
// Curator's InterProcessMutex recipe over ZooKeeper's client connection.
// It is a sim.Mode registered from init; importing sim/designs registers
// it. Its figures and their sources are in zookeeper.go; ARCHITECTURE.md
// is the map of the whole program.
package zookeeper
