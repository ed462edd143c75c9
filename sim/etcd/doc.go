// Package etcd is the etcd lock design: members etcd-1…etcd-N running raft
// (elections, pre-vote, log replication, ReadIndex), an MVCC store and a
// lessor, and clients running clientv3's concurrency.Session and Mutex
// (keys under a prefix, waiting on the previous revision). It is a sim.Mode
// registered from init; importing sim/designs registers it. Its figures
// and their sources are in etcd.go; ARCHITECTURE.md is the map of the
// whole program.
package etcd
