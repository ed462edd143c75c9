// Package conformance checks the simulated servers of package sim against
// the real ones: the same scripted operations, with the same timings, go to
// redis-server, redsync over five redis-servers, ZooKeeper (standalone and
// a 3-server ensemble) and etcd (one member, and a 3-member cluster for
// pre-vote and lease streams; concurrency.Mutex and Election), and to
// their simulated twins, and the answers must agree. client-go's leader
// election runs on client-go's fake clientset, no server. It is a nested module so the client libraries never
// enter the main module; run.sh installs and starts the servers and runs
// it. DIFFERENCES.md lists what the comparison found to differ.
package conformance
