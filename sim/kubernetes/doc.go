// Package kubernetes is the Kubernetes Lease design: a coordination.k8s.io/v1
// Lease object held by kube-apiserver (apiserver-1) in front of an etcd
// ensemble (etcd-1…etcd-N, sim/etcd's members), and candidates running
// client-go's LeaderElector on it (tools/leaderelection). Like the DynamoDB
// Lock Client the lease is timed by the waiter's own clock: a candidate
// takes the Lease over only once it has seen the record unchanged for the
// record's leaseDurationSeconds on its own monotonic clock, and a leader
// steps down when it has not renewed within RenewDeadline on its own.
package kubernetes
