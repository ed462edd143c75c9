package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// writeReport prints a run's summary for a person, in language l: the
// verdict first, then the counts, then every grant with its token.
func writeReport(w io.Writer, l i18n.Lang, source string, sc *sim.Scenario, sum sim.Summary) error {
	t := func(key string) string { return i18n.In(l, key) }
	fmt.Fprintln(w, verdict(l, sum))
	title := source
	if sum.Name != "" && sum.Name != source {
		name := sum.Name
		if i18n.Has(l, "preset."+source) {
			name = t("preset." + source)
		}
		title = fmt.Sprintf("%s (%s)", name, source)
	}
	fmt.Fprintln(w, i18n.Fin(l, "report.title", "title", title, "mode", sum.Mode, "seed", sum.Seed, "duration", sc.Duration.D()))
	fmt.Fprintln(w)

	violations := []string{t("report.violations"), strconv.Itoa(sum.Violations)}
	if sum.Violations > 0 {
		violations = append(violations, i18n.Fin(l, "report.overlap", "ms", ms(sum.OverlapMs)))
	}
	counts := [][]string{
		{t("report.acquisitions"), strconv.Itoa(sum.Acquisitions)},
		{t("report.releases"), strconv.Itoa(sum.Releases)},
		violations,
		{t("report.writes"), strconv.Itoa(sum.Writes)},
		{t("report.staleAccepted"), strconv.Itoa(sum.StaleWritesAccepted)},
		{t("report.staleRejected"), strconv.Itoa(sum.StaleWritesRejected)},
		{t("report.lostUpdates"), strconv.Itoa(sum.LostUpdates)},
		{t("report.expiredWhileHeld"), strconv.Itoa(sum.ExpiredWhileHeld)},
		{t("report.messages"), strconv.Itoa(sum.Messages)},
		{t("report.p50"), ms(sum.AcquireLatencyP50Ms) + " ms"},
		{t("report.p99"), ms(sum.AcquireLatencyP99Ms) + " ms"},
		{t("report.watchNotifications"), strconv.Itoa(sum.WatchNotifications)},
	}
	if sum.Election && sum.Metrics != nil { // an election's price: split brain against vacancy
		counts = append(counts,
			[]string{t("report.twoLeaders"), ms(sum.Metrics.SeveralHoldersMs) + " ms"},
			[]string{t("report.noLeader"), ms(sum.Metrics.NoHolderMs) + " ms"})
	}
	if err := writeTable(w, "", counts); err != nil {
		return err
	}

	if len(sum.Grants) == 0 {
		_, err := fmt.Fprintln(w, "\n"+t("report.noGrants"))
		return err
	}
	validity, reads := false, false
	for _, g := range sum.Grants {
		validity = validity || g.ValidityMs != nil
		reads = reads || g.Read
	}
	fmt.Fprintln(w, "\n"+t("report.grants"))
	header := []string{t("report.grants.at"), t("report.grants.client"), t("report.grants.token")}
	if validity {
		header = append(header, t("report.grants.validity"))
	}
	if reads { // a read–write lock's run: which grants are read holds
		header = append(header, t("report.grants.kind"))
	}
	rows := [][]string{header}
	for _, g := range sum.Grants {
		row := []string{ms(g.AtMs), g.Client, token(sc, g.Token)}
		if validity {
			v := "-"
			if g.ValidityMs != nil {
				v = ms(*g.ValidityMs)
			}
			row = append(row, v)
		}
		if reads {
			kind := t("report.grants.write")
			if g.Read {
				kind = t("report.grants.read")
			}
			row = append(row, kind)
		}
		rows = append(rows, row)
	}
	if err := writeTable(w, "  ", rows); err != nil {
		return err
	}
	switch {
	case sim.TraitsOf(sc.Mode).Token == sim.NoToken:
		_, err := fmt.Fprintln(w, t("report.noToken"))
		return err
	case !sc.Fencing:
		_, err := fmt.Fprintln(w, t("report.noFencing"))
		return err
	}
	return nil
}

// verdict is the first line of the report: SAFE or UNSAFE and why.
func verdict(l i18n.Lang, sum sim.Summary) string {
	if !sum.Safe {
		key := "report.unsafe.many"
		if sum.StaleWritesAccepted == 1 {
			key = "report.unsafe.one"
		}
		return i18n.Fin(l, key, "n", sum.StaleWritesAccepted)
	}
	if sum.StaleWritesRejected > 0 {
		return i18n.Fin(l, "report.safe.fenced", "n", sum.StaleWritesRejected)
	}
	return i18n.In(l, "report.safe")
}

// token shows a grant's token, or "-" where the grant has none to show:
// Redlock has no ordered token, and Redis without fencing hands out none.
func token(sc *sim.Scenario, t int64) string {
	if sim.TraitsOf(sc.Mode).Token == sim.NoToken || (t == 0 && !sc.Fencing) {
		return "-"
	}
	return strconv.FormatInt(t, 10)
}

// writeTable writes rows as columns two spaces apart, each line after
// indent, as text/tabwriter would. Widths are measured in terminal cells, so Chinese labels (two
// cells a character) line up as well as English ones.
func writeTable(w io.Writer, indent string, rows [][]string) error {
	// As with text/tabwriter, a row's last cell does not widen its column.
	var widths []int
	for _, r := range rows {
		for i, c := range r[:max(len(r)-1, 0)] {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(indent)
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-runewidth.StringWidth(c)+2))
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ms(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
