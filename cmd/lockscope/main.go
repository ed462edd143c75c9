// Command lockscope is LockScope: with no arguments it opens the window;
// with a subcommand it runs scenarios headless and prints what it found.
//
//	lockscope                   open the window
//	lockscope presets           list the preset scenarios
//	lockscope run PRESET|FILE   run one scenario and report its verdict
//	lockscope sweep --mode M    run a grid of scenarios: the TTL–safety trade-off
//	lockscope shot PRESET|FILE  draw a scenario's tab at an instant into a PNG
//	lockscope break PRESET|FILE search fault schedules for the smallest that corrupts the data
//	lockscope --version         print the version
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/lockscope/lockscope/app"
	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/designs"
	"github.com/lockscope/lockscope/sim"
)

// version is the program's version. The Makefile sets it from FyneApp.toml
// with -ldflags "-X main.version=..."; the default here is kept equal to
// FyneApp.toml by a test, so a plain `go build` reports the same.
var version = "0.1.0"

// openWindow starts the GUI; tests replace it to check the dispatch without
// opening a window.
var openWindow = app.Run

// Exit statuses of DESIGN.md: a completed run exits 0 whatever it found; bad
// input exits 2 with one line on stderr. exitFailure is for what is neither,
// such as a trace file that cannot be written after the run.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

const usage = `usage:
  lockscope                                  open the window
  lockscope presets                          list preset scenarios
  lockscope run PRESET|FILE [--seed N] [--set field=value]... [--json] [--trace FILE] [--lang en|zh]
  lockscope sweep --mode M --x field=from:to:steps [--y field=from:to:steps] [--seeds N] [--pause-at before-write|mid-work] [--csv]
  lockscope shot PRESET|FILE --at DURATION --out FILE.png [--size WxH] [--scale S] [--lang en|zh]
  lockscope break PRESET|FILE [--faults pause,partition,clockJump,crash,failover] [--max-faults N]
                  [--max-pause D] [--max-jump D] [--max-partition D] [--runs N] [--seed N]
                  [--out FILE] [--json] [--lang en|zh]
  lockscope --version                        print the version
`

// memoryLimit is the heap the garbage collector aims to stay under (Go's
// soft limit, GOMEMLIMIT). A long recording keeps about 600 MiB alive at
// most (sim.DefaultCheckpointBudget and DefaultTraceBudget plus the run);
// without a limit the collector lets the heap double over what is alive
// before it collects, which took the six-hour etcd file of issue 17 to
// 1.5 GB resident. GOMEMLIMIT in the environment wins.
const memoryLimit = 1 << 30

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program behind main, so tests drive it without exec.
func run(args []string, stdout, stderr io.Writer) int {
	if err := designs.InstallAll(); err != nil {
		fmt.Fprintf(stderr, "lockscope: the list of designs: %s\n", oneLine(err))
		return exitFailure
	}
	if len(args) == 0 {
		app.Version = version
		openWindow()
		return exitOK
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "presets":
		if len(rest) > 0 {
			return fail(stderr, fmt.Errorf("presets: takes no arguments, got %q", rest[0]))
		}
		return listPresets(stdout, stderr)
	case "run":
		return runScenario(rest, stdout, stderr)
	case "sweep":
		return sweepScenario(rest, stdout, stderr)
	case "shot":
		return shotScenario(rest, stdout, stderr)
	case "break":
		return breakScenario(rest, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "lockscope %s\n", version)
		return exitOK
	case "help", "--help", "-help", "-h":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if strings.HasPrefix(cmd, "-") {
		return fail(stderr, fmt.Errorf("unknown flag %q (commands: presets, run, sweep, shot, break, --version; see lockscope help)", cmd))
	}
	return fail(stderr, fmt.Errorf("unknown command %q (commands: presets, run, sweep, shot, break, --version; see lockscope help)", cmd))
}

// fail prints err as the one line DESIGN.md promises and returns the bad
// input status.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "lockscope: %s\n", oneLine(err))
	return exitUsage
}

// oneLine folds an error onto a single line, whatever its source wrote.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// listPresets prints each preset with the scenario's name as its caption.
func listPresets(stdout, stderr io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, name := range assets.PresetNames(sim.ModeNames()) {
		sc, err := app.Preset(name)
		if err != nil {
			tw.Flush()
			fmt.Fprintf(stderr, "lockscope: %s\n", oneLine(err))
			return exitFailure
		}
		fmt.Fprintf(tw, "%s\t%s\n", name, sc.Name)
	}
	if err := tw.Flush(); err != nil {
		return writeFailed(stderr, err)
	}
	return exitOK
}

// writeFailed reports an output error (a closed pipe, a full disk): not
// bad input, so it gets its own status.
func writeFailed(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "lockscope: %s\n", oneLine(err))
	return exitFailure
}
