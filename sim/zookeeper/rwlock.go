package zookeeper

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/lockscope/lockscope/sim"
)

// Curator's read–write lock, with the readers option (apache/curator, tag
// apache-curator-5.9.0, curator-recipes/src/main/java/org/apache/curator/
// framework/recipes/locks/InterProcessReadWriteLock.java):
//
//   - Both locks are InterProcessMutexes over the same path, so their
//     nodes queue in one directory: the protected EPHEMERAL_SEQUENTIAL
//     create of _c_<guid>-__READ__<seq10> or _c_<guid>-__WRIT__<seq10>
//     (READ_LOCK_NAME and WRITE_LOCK_NAME, "must be the same length").
//     SortingLockInternalsDriver.fixForSorting strips either name, so the
//     children sort by their sequence alone, readers and writers together.
//   - The write lock has maxLeases 1 and the StandardLockInternalsDriver
//     (StandardLockInternalsDriver.java, getsTheLock): it holds when its
//     node is the lowest, else it watches the node just before its own,
//     a reader's or a writer's.
//   - The read lock has maxLeases Integer.MAX_VALUE and its own
//     getsTheLock: walking the sorted children up to its own node, it
//     notes the first write node; it holds when no write node sorts
//     before its own (ourIndex < firstWriteIndex), else it watches that
//     first write node, children.get(firstWriteIndex). So a reader that
//     comes after a waiting writer waits, and readers that come before it
//     hold together: the order of the queue is kept.
//   - Re-entry is InterProcessMutex's lockCount for either lock (the
//     reenter option: reenter.go); a writer may take the read lock too
//     (writeLock.isOwnedByCurrentThread()), a reader never the write
//     lock. Each client here takes one of the two, so neither arises.
//   - The leader election recipe has no readers: Validate refuses both.
//
// The token of a read hold is its node's sequence, as a writer's.

// The read–write lock's node names (READ_LOCK_NAME, WRITE_LOCK_NAME).
const (
	ReadName  = "__READ__"
	WriteName = "__WRIT__"
)

// reader reports whether this client takes the read lock: with readers
// N, client-1…client-N do.
func (c *zkClient) reader(sc *sim.Scenario) bool { return c.idx < Readers.Of(sc) }

// lockName is the name of the client's lock nodes before the sequence:
// the read or the write lock's with readers, else the recipe's.
func (c *zkClient) lockName(sc *sim.Scenario) string {
	switch {
	case !Readers.IsOn(sc):
		return nodeName(sc)
	case c.reader(sc):
		return ReadName
	}
	return WriteName
}

// readerGetsTheLock is the read lock's getsTheLock on the sorted children
// (ours at i): a read hold when no write node sorts before ours, else a
// watch on the first write node.
func (c *zkClient) readerGetsTheLock(ctx sim.Ctx, sorted []string, i int) {
	first := -1
	for k := range i {
		if strings.Contains(sorted[k], WriteName) {
			first = k
			break
		}
	}
	switch {
	case first < 0:
		c.step = ""
		c.GrantShared(ctx, c.ourSeq, 0)
		c.armReentry(ctx)
	default:
		if ctx.Tracing() && !Herd.Of(ctx.Scenario()) {
			ctx.TraceSaid(traceLock, "", fmt.Sprintf("a write node sorts first: the read lock watches %s", sorted[first]),
				sim.Say("note.zk.readerWaits", "node", sorted[first]))
		}
		c.waitFor(ctx, sorted[first])
	}
}

// checkReadersUse: the leader election recipe has no read lock.
func checkReadersUse(sc *sim.Scenario) error {
	if Readers.IsOn(sc) && Electing(sc) {
		return sim.FieldErr("readers", sim.Say("field.readersElection"), "a leader election has no readers: use lock")
	}
	return nil
}

// holders are the children that hold by the read–write lock's rules, in
// sequence order: every read node before the first write node, or that
// write node when it is the lowest.
func (t *zkTree) holders() []zkZnode {
	nodes := slices.Clone(t.nodes)
	slices.SortStableFunc(nodes, func(a, b zkZnode) int { return cmp.Compare(a.Seq, b.Seq) })
	for i, n := range nodes {
		if !strings.Contains(n.Name, ReadName) {
			return nodes[:max(i, min(1, len(nodes)))]
		}
	}
	return nodes
}

// updateHolders tells the checker that the nodes now hold under the
// read–write lock (the tree's holders, or none when the server stops
// leading), each holder's node its own ownership (several readers at
// once); owner keeps their names, one a line.
func (s *zkServer) updateHolders(ctx sim.Ctx, expired bool, now []zkZnode) {
	names := make([]string, len(now))
	for i, n := range now {
		names[i] = n.Name
	}
	joined := strings.Join(names, "\n")
	if joined == s.owner {
		return
	}
	var was []string
	if s.owner != "" {
		was = strings.Split(s.owner, "\n")
	}
	for _, name := range was {
		if !slices.Contains(names, name) {
			ctx.Disown(LockPath+"/"+name, expired)
		}
	}
	for _, n := range now {
		if slices.Contains(was, n.Name) {
			continue
		}
		if id := ctx.Lookup(s.tree.owner(n.Session)); id != sim.None {
			ctx.Own(LockPath+"/"+n.Name, id)
		}
	}
	s.owner = joined
}
