// Package widgets holds the custom Fyne widgets that draw simulator
// snapshots every design shares — the cluster, the timeline, the metrics
// strip, the trade-off map — and the drawing helpers every picture uses,
// once: object pools, text measuring and fitting, placing, the palette,
// time formatting. A design's own state picture and tab live in its folder
// below (widgets/<design>/, listed in package designs). They only
// draw: every value comes from a sim.Snapshot or sim.Timeline handed to
// them, and they never change the simulation.
//
// A picture's longer drawing is in two parts: its geometry, a pure
// function of the snapshot (or timeline) and the size that says where
// each of its objects goes as spots (TextSpot, RectSpot, LineSpot), tested
// without canvas objects; and its placing, which hands each spot to the
// object it is for (Place).
package widgets
