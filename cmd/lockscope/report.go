package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/lockscope/lockscope/sim"
)

// writeReport prints a run's summary for a person: the verdict first, then
// the counts, then every grant with its token.
func writeReport(w io.Writer, source string, sc *sim.Scenario, sum sim.Summary) error {
	fmt.Fprintln(w, verdict(sum))
	title := source
	if sum.Name != "" && sum.Name != source {
		title = fmt.Sprintf("%s (%s)", sum.Name, source)
	}
	fmt.Fprintf(w, "%s; mode %s, seed %d, %v simulated\n\n", title, sum.Mode, sum.Seed, sc.Duration.D())

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	overlap := ""
	if sum.Violations > 0 {
		overlap = fmt.Sprintf("\t(overlap %s ms)", ms(sum.OverlapMs))
	}
	fmt.Fprintf(tw, "acquisitions\t%d\n", sum.Acquisitions)
	fmt.Fprintf(tw, "releases\t%d\n", sum.Releases)
	fmt.Fprintf(tw, "violations\t%d%s\n", sum.Violations, overlap)
	fmt.Fprintf(tw, "writes\t%d\n", sum.Writes)
	fmt.Fprintf(tw, "stale writes accepted\t%d\n", sum.StaleWritesAccepted)
	fmt.Fprintf(tw, "stale writes rejected\t%d\n", sum.StaleWritesRejected)
	fmt.Fprintf(tw, "expired while held\t%d\n", sum.ExpiredWhileHeld)
	fmt.Fprintf(tw, "messages\t%d\n", sum.Messages)
	fmt.Fprintf(tw, "acquire latency p50\t%s ms\n", ms(sum.AcquireLatencyP50Ms))
	fmt.Fprintf(tw, "acquire latency p99\t%s ms\n", ms(sum.AcquireLatencyP99Ms))
	fmt.Fprintf(tw, "watch notifications\t%d\n", sum.WatchNotifications)
	if err := tw.Flush(); err != nil {
		return err
	}

	if len(sum.Grants) == 0 {
		_, err := fmt.Fprintln(w, "\ngrants: none")
		return err
	}
	validity := false
	for _, g := range sum.Grants {
		validity = validity || g.ValidityMs != nil
	}
	fmt.Fprintln(w, "\ngrants")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "  at (ms)\tclient\ttoken"
	if validity {
		header += "\tvalidity (ms)"
	}
	fmt.Fprintln(tw, header)
	for _, g := range sum.Grants {
		line := fmt.Sprintf("  %s\t%s\t%s", ms(g.AtMs), g.Client, token(sc, g.Token))
		if validity {
			v := "-"
			if g.ValidityMs != nil {
				v = ms(*g.ValidityMs)
			}
			line += "\t" + v
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	switch {
	case sc.Mode == "redlock":
		_, err := fmt.Fprintln(w, "(Redlock grants carry no ordered token: there is nothing to fence with.)")
		return err
	case !sc.Fencing:
		_, err := fmt.Fprintln(w, "(fencing is off: the storage checks no token.)")
		return err
	}
	return nil
}

// verdict is the first line of the report: SAFE or UNSAFE and why.
func verdict(sum sim.Summary) string {
	if !sum.Safe {
		return fmt.Sprintf("UNSAFE: %s accepted by the storage", plural(sum.StaleWritesAccepted, "stale write"))
	}
	if sum.StaleWritesRejected > 0 {
		return fmt.Sprintf("SAFE: no stale write accepted; fencing rejected %d", sum.StaleWritesRejected)
	}
	return "SAFE: no stale write accepted"
}

// token shows a grant's token, or "-" where the grant has none to show:
// Redlock has no ordered token, and Redis without fencing hands out none.
func token(sc *sim.Scenario, t int64) string {
	if sc.Mode == "redlock" || (t == 0 && !sc.Fencing) {
		return "-"
	}
	return strconv.FormatInt(t, 10)
}

func ms(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
