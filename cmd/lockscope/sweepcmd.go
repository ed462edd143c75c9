package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/sweep"
)

const sweepUsage = `usage: lockscope sweep --mode M --x field=from:to:steps [--y field=from:to:steps] [--seeds N] [--pause-at before-write|mid-work] [--set field=value]... [--csv]

  --mode M            %s
  --x, --y            %s; durations as Go durations (--x ttl=1s:30s:30)
                      pause is a pause injected into the first holder
  --pause-at P        where the pause strikes: before-write (default: after the
                      holder's last check, just before it sends its write, the
                      worst moment) or mid-work (halfway through its work)
  --seeds N           runs per cell (default 20)
  --set field=value   override the base scenario (two clients, one round, 60 s)
  --csv               print x,y,runs,unsafeRate,violationRate,recoveryMeanMs,
                      recoveryP99Ms,acquireMeanMs,throughputPerS,waitP99Ms
                      (durations in ms; throughputPerS: grants per second of
                      each paused run until it settled, the mean over them)
`

// sweepOptions is the parsed command line of `lockscope sweep`.
type sweepOptions struct {
	mode      string
	x, y      string
	seeds     int
	overrides []override
	pauseAt   string
	csv       bool
	help      bool
}

func parseSweepArgs(args []string) (sweepOptions, error) {
	o := sweepOptions{seeds: 20}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if isPositional(a) {
			return o, fmt.Errorf("sweep: unexpected argument %q (flags: --mode, --x, --y, --seeds, --pause-at, --set, --csv)", a)
		}
		name, _, value := flagAt(args, &i)
		var err error
		switch name {
		case "csv":
			o.csv = true
		case "h", "help":
			o.help = true
		case "mode":
			o.mode, err = value()
		case "x":
			o.x, err = value()
		case "y":
			o.y, err = value()
		case "pause-at":
			if o.pauseAt, err = value(); err == nil && !slices.Contains(sweep.PauseAts, o.pauseAt) {
				err = fmt.Errorf("--pause-at: want %s, got %q", strings.Join(sweep.PauseAts, " or "), o.pauseAt)
			}
		case "seeds":
			var v string
			if v, err = value(); err == nil {
				o.seeds, err = strconv.Atoi(v)
				if err != nil || o.seeds < 1 || o.seeds > 10000 {
					err = fmt.Errorf("--seeds: want 1 to 10000, got %q", v)
				}
			}
		case "set":
			var v string
			if v, err = value(); err == nil {
				var ov override
				if ov, err = parseSet(v); err == nil {
					o.overrides = append(o.overrides, ov)
				}
			}
		default:
			return o, fmt.Errorf("sweep: unknown flag %q (flags: --mode, --x, --y, --seeds, --pause-at, --set, --csv)", a)
		}
		if err != nil {
			return o, err
		}
	}
	if o.help {
		return o, nil
	}
	if o.mode == "" {
		return o, errors.New("sweep: --mode is required (" + strings.Join(sim.ModeNames(), ", ") + ")")
	}
	if o.x == "" {
		return o, errors.New("sweep: --x is required, such as --x ttl=1s:30s:30")
	}
	return o, nil
}

// buildSweep turns the options into a validated sweep.
func buildSweep(o sweepOptions) (*sweep.Sweep, error) {
	base, err := sweep.Base(o.mode)
	if err != nil {
		return nil, fmt.Errorf("--mode: %w", err)
	}
	if len(o.overrides) > 0 {
		doc, err := base.Marshal()
		if err != nil {
			return nil, err
		}
		if doc, err = applyOverrides(doc, o.overrides); err != nil {
			return nil, err
		}
		if base, err = sim.ParseScenario(doc); err != nil {
			return nil, err
		}
	}
	sw := &sweep.Sweep{Base: base, Seeds: o.seeds, PauseAt: o.pauseAt}
	if sw.X, err = sweep.ParseAxis(o.x); err != nil {
		return nil, fmt.Errorf("--x: %w", err)
	}
	if o.y != "" {
		if sw.Y, err = sweep.ParseAxis(o.y); err != nil {
			return nil, fmt.Errorf("--y: %w", err)
		}
		if sw.Y.Field == sw.X.Field {
			return nil, fmt.Errorf("--y: %s is already the x axis", sw.Y.Field)
		}
	}
	if err := sw.Validate(); err != nil {
		return nil, err
	}
	return sw, nil
}

// sweepScenario is `lockscope sweep`.
func sweepScenario(args []string, stdout, stderr io.Writer) int {
	o, err := parseSweepArgs(args)
	if err != nil {
		return fail(stderr, err)
	}
	if o.help {
		fmt.Fprintf(stdout, sweepUsage, modeList(), sweepFieldList())
		return exitOK
	}
	sw, err := buildSweep(o)
	if err != nil {
		return fail(stderr, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var mu sync.Mutex
	shown := 0
	cells, err := sw.Run(ctx, 0, func(done, total int) {
		pct := done * 10 / total
		mu.Lock()
		defer mu.Unlock()
		if pct > shown {
			shown = pct
			fmt.Fprintf(stderr, "sweep: %d%% (%d/%d runs)\n", pct*10, done*2, total*2)
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "lockscope: sweep: %s\n", oneLine(err))
		return exitFailure
	}
	if o.csv {
		err = writeSweepCSV(stdout, sw, cells)
	} else {
		err = writeSweepTable(stdout, sw, cells)
	}
	if err != nil {
		return writeFailed(stderr, err)
	}
	return exitOK
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// writeSweepCSV prints one line per cell; durations in milliseconds.
func writeSweepCSV(w io.Writer, sw *sweep.Sweep, cells []sweep.Cell) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"x", "y", "runs", "unsafeRate", "violationRate", "recoveryMeanMs", "recoveryP99Ms", "acquireMeanMs",
		"throughputPerS", "waitP99Ms"})
	for _, c := range cells {
		y := ""
		if sw.Y.Field != "" {
			y = num(c.Y)
		}
		cw.Write([]string{num(c.X), y, strconv.Itoa(c.Runs), num(c.UnsafeRate), num(c.ViolationRate),
			num(c.RecoveryMeanMs), num(c.RecoveryP99Ms), num(c.AcquireMeanMs), num(c.Throughput), num(c.WaitP99Ms)})
	}
	cw.Flush()
	return cw.Error()
}

// writeSweepTable prints a readable table, one row per cell.
func writeSweepTable(w io.Writer, sw *sweep.Sweep, cells []sweep.Cell) error {
	fmt.Fprintf(w, "%s sweep: %s", sw.Base.Mode, sw.X.Field)
	if sw.Y.Field != "" {
		fmt.Fprintf(w, " × %s", sw.Y.Field)
	}
	fmt.Fprintf(w, ", %d seeds per cell; unsafe = the storage took a stale write\n\n", sw.Seeds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := sw.X.Field + "\t"
	if sw.Y.Field != "" {
		head += sw.Y.Field + "\t"
	}
	fmt.Fprintln(tw, head+"runs\tunsafe\tviolations\trecovery mean\trecovery p99\tacquire mean\tthroughput\twait p99\t")
	pct := func(r float64) string { return strconv.FormatFloat(r*100, 'f', 0, 64) + "%" }
	msd := func(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) + " ms" }
	for _, c := range cells {
		row := sw.X.Format(c.X) + "\t"
		if sw.Y.Field != "" {
			row += sw.Y.Format(c.Y) + "\t"
		}
		fmt.Fprintf(tw, "%s%d\t%s\t%s\t%s\t%s\t%s\t%s/s\t%s\t\n", row, c.Runs, pct(c.UnsafeRate), pct(c.ViolationRate),
			msd(c.RecoveryMeanMs), msd(c.RecoveryP99Ms), msd(c.AcquireMeanMs),
			strconv.FormatFloat(c.Throughput, 'f', 2, 64), msd(c.WaitP99Ms))
	}
	return tw.Flush()
}

// modeList writes the registered modes as the usage lists them ("redis,
// redlock, zookeeper or etcd"), so the usage names no design itself.
func modeList() string { return orList(sim.ModeNames()) }

// orList writes names as "a, b or c".
func orList(n []string) string {
	if len(n) < 2 {
		return strings.Join(n, "")
	}
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// sweepFieldList is the usage's "a field and its range: " and the fields a
// sweep can vary (sim.SweepFields, the designs' options among them),
// wrapped as the usage's other lines are, at 83 columns under its flag's
// description.
func sweepFieldList() string {
	const indent, width = 22, 83
	var b strings.Builder
	col := indent
	for i, w := range strings.Fields("a field and its range: " + orList(sim.SweepFields())) {
		if i > 0 && col+1+len(w) > width {
			b.WriteString("\n" + strings.Repeat(" ", indent))
			col = indent
		} else if i > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}
