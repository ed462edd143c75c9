// Package widgets holds the custom Fyne widgets that draw simulator
// snapshots every design shares — the cluster, the timeline, the metrics
// strip, the trade-off map — and the drawing helpers every picture uses,
// once: object pools, text measuring and fitting, placing, the palette,
// time formatting. A design's own state picture and tab live in its folder
// below (widgets/<design>/, registered by widgets/designs). They only
// draw: every value comes from a sim.Snapshot or sim.Timeline handed to
// them, and they never change the simulation.
package widgets
