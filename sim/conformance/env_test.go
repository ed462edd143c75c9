package conformance

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// need returns the address or setting run.sh exported under name. Without
// it the test is skipped (a plain `go test` has no servers), unless CI is
// set: there a missing server is a failure, as issue 9 asks.
func need(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v != "" {
		return v
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not set: CI must run the conformance tests through sim/conformance/run.sh", name)
	}
	t.Skipf("%s is not set: run sim/conformance/run.sh, which starts the real servers", name)
	return ""
}

// ctxFor is a context bounded so a hung server fails the test instead of
// blocking the run.
func ctxFor(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// process is a server a test starts itself because it kills, freezes or
// restarts it. It dies with the test binary (Pdeathsig), and records its
// pid where run.sh's trap finds it, so nothing outlives the run.
type process struct {
	name string
	cmd  *exec.Cmd
	pid  string // the pid file
}

// startProcess runs bin with args, its output in the run's log directory.
func startProcess(t *testing.T, name, bin string, args ...string) *process {
	t.Helper()
	work := need(t, "LOCKSCOPE_WORK")
	logf, err := os.Create(filepath.Join(work, "logs", name+".log"))
	if err != nil {
		t.Fatalf("%s: log file: %v", name, err)
	}
	t.Cleanup(func() { logf.Close() })
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: start %s: %v", name, bin, err)
	}
	p := &process{name: name, cmd: cmd, pid: filepath.Join(work, "pids", name+".pid")}
	if err := os.WriteFile(p.pid, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		t.Fatalf("%s: pid file: %v", name, err)
	}
	t.Cleanup(p.kill)
	return p
}

// kill ends the process at once (SIGKILL: no shutdown save) and reaps it.
func (p *process) kill() {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGCONT)
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	_ = os.Remove(p.pid)
}

// freeze stops the process (SIGSTOP): its sockets stay open and silent.
func (p *process) freeze() error { return p.cmd.Process.Signal(syscall.SIGSTOP) }

// thaw resumes a frozen process.
func (p *process) thaw() error { return p.cmd.Process.Signal(syscall.SIGCONT) }

// waitFor polls ok until it reports true or d has passed.
func waitFor(d time.Duration, what string, ok func() bool) error {
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: not within %v", what, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// runSafely runs a simulation to its end; a panic in the simulator fails
// this test with the panic's message instead of ending the whole run.
func runSafely(t *testing.T, s interface{ Run() sim.Summary }) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("the simulator panicked: %v", p)
		}
	}()
	s.Run()
}

// TestMain installs the designs' simulator sides the tests run beside the
// real servers (simtest.Modes): no design adds itself.
func TestMain(m *testing.M) { simtest.Main(m) }
