package widgets

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// ShortTime writes a round duration without trailing zeros ("10 s",
// "100 ms") and any other as FormatTime does: a setting's length (a
// TTL, a session timeout, a retry delay), where FormatTime's digits would
// read as a measurement.
func ShortTime(d time.Duration) string {
	switch {
	case d >= time.Second && d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + " s"
	case d < time.Second && d%time.Millisecond == 0:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return FormatTime(d)
}

// FormatTime writes a true-time instant or a length the way every widget
// shows it: milliseconds under a second, seconds with millisecond precision
// up to ten minutes; beyond, hours and minutes in the reader's language
// ("3 h 14 min", "3 小时 14 分钟") with the seconds left over, a part that
// is zero left out, so a long run's end never reads "194 min 0.000 s".
func FormatTime(d time.Duration) string {
	neg := ""
	if d < 0 {
		neg, d = "−", -d
	}
	switch {
	case d == 0:
		return "0 s"
	case d < time.Second:
		return fmt.Sprintf("%s%.3g ms", neg, sim.Ms(d))
	case d < 10*time.Minute:
		return fmt.Sprintf("%s%.3f s", neg, d.Seconds())
	}
	var parts []string
	if h := d / time.Hour; h > 0 {
		parts = append(parts, i18n.F("time.hours", "n", int64(h)))
	}
	if m := d % time.Hour / time.Minute; m > 0 {
		parts = append(parts, i18n.F("time.minutes", "n", int64(m)))
	}
	switch s := d % time.Minute; {
	case s%time.Second == 0 && s > 0:
		parts = append(parts, fmt.Sprintf("%d s", s/time.Second))
	case s > 0:
		parts = append(parts, fmt.Sprintf("%.3f s", s.Seconds()))
	}
	return neg + strings.Join(parts, " ")
}

// FormatSkew writes a clock offset with its sign, for node clocks.
func FormatSkew(d time.Duration) string {
	if d >= 0 {
		return "+" + FormatTime(d)
	}
	return FormatTime(d)
}
