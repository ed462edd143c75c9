// Package etcd is the etcd lock design: members etcd-1…etcd-N running raft
// (elections, pre-vote, log replication, ReadIndex), an MVCC store and a
// lessor, and clients running clientv3's concurrency.Session and Mutex (keys
// under a prefix, waiting on the previous revision). Its sim.Mode is the
// value Mode, which the list of designs (package designs) installs at start.
// Its figures and their sources are in etcd.go; ARCHITECTURE.md is the map
// of the whole program.
package etcd
