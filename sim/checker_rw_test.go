package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestOverlapsAWriterOverlapsNoOne holds the checker's rule with read
// holds (Grant.Shared): readers may hold together, a writer with anyone
// is an overlap.
func TestOverlapsAWriterOverlapsNoOne(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	type hold struct {
		client       NodeID
		from, to     int
		shared, open bool
	}
	cases := []struct {
		name  string
		holds []hold
		want  []Interval
	}{
		{"two readers together", []hold{{0, 0, 100, true, false}, {1, 50, 150, true, false}}, nil},
		{"two writers", []hold{{0, 0, 100, false, false}, {1, 50, 150, false, false}}, []Interval{{ms(50), ms(100)}}},
		{"a writer inside a reader", []hold{{0, 0, 100, true, false}, {1, 20, 40, false, false}}, []Interval{{ms(20), ms(40)}}},
		{"a reader inside a writer", []hold{{0, 0, 100, false, false}, {1, 20, 40, true, false}}, []Interval{{ms(20), ms(40)}}},
		{"readers, then a writer after them", []hold{{0, 0, 100, true, false}, {1, 10, 90, true, false}, {2, 100, 200, false, false}}, nil},
		{"a writer across two readers", []hold{{0, 0, 100, true, false}, {1, 150, 250, true, false}, {2, 50, 200, false, false}},
			[]Interval{{ms(50), ms(100)}, {ms(150), ms(200)}}},
		{"three readers, one writer through them all", []hold{{0, 0, 100, true, false}, {1, 0, 100, true, false}, {2, 10, 60, false, false}},
			[]Interval{{ms(10), ms(60)}}},
		{"an open read hold and a writer", []hold{{0, 0, 0, true, true}, {1, 250, 400, false, false}}, []Interval{{ms(250), ms(300)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &Sim{Scenario: &Scenario{Clients: 3}}
			c := newChecker(s)
			type ev struct {
				at    int
				grant bool
				h     hold
			}
			var evs []ev
			for _, h := range tc.holds {
				evs = append(evs, ev{h.from, true, h})
				if !h.open {
					evs = append(evs, ev{h.to, false, h})
				}
			}
			for len(evs) > 0 { // in time order, ends before grants at one instant
				k := 0
				for i, e := range evs {
					if e.at < evs[k].at || e.at == evs[k].at && !e.grant && evs[k].grant {
						k = i
					}
				}
				e := evs[k]
				evs = append(evs[:k], evs[k+1:]...)
				if e.grant {
					c.granted(ms(e.at), e.h.client, 1, 0, e.h.shared)
				} else {
					c.unheld(ms(e.at), e.h.client)
				}
			}
			assert.Equal(t, tc.want, c.Overlaps(ms(300)))
			for _, h := range tc.holds {
				shared := c.SharedBeliefs(ms(300))[h.client]
				assert.Equal(t, h.shared, len(shared) == 1, "client %d's read hold", h.client)
			}
		})
	}
}
