package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// Pool hands out groups of canvas objects of one kind, growing as needed
// and hiding what a frame did not use, so a renderer never rebuilds its
// tree per frame.
type Pool[T any] struct {
	items []T
	used  int
	make  func() T
	parts func(T) []fyne.CanvasObject
	grew  bool
}

// NewPool is a pool that makes an item with make and lists its objects
// with parts.
func NewPool[T any](make func() T, parts func(T) []fyne.CanvasObject) *Pool[T] {
	return &Pool[T]{make: make, parts: parts}
}

// Reset starts a frame: every item is free to hand out again.
func (p *Pool[T]) Reset() { p.used = 0 }

// Used lists the items handed out since the last Reset, in order: what
// the frame drew.
func (p *Pool[T]) Used() []T { return p.items[:p.used] }

// Next hands out the next free item, making one when all are used.
func (p *Pool[T]) Next() T {
	if p.used == len(p.items) {
		p.items = append(p.items, p.make())
		p.grew = true
	}
	it := p.items[p.used]
	p.used++
	return it
}

// hideRest hides the objects not handed out since the last reset.
func (p *Pool[T]) hideRest() {
	for _, it := range p.items[p.used:] {
		for _, o := range p.parts(it) {
			if o.Visible() {
				o.Hide()
			}
		}
	}
}

// objects lists every object of the pool in drawing order.
func (p *Pool[T]) objects() []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, it := range p.items {
		out = append(out, p.parts(it)...)
	}
	return out
}

// takeGrowth reports whether the pool grew since the last call.
func (p *Pool[T]) takeGrowth() bool {
	g := p.grew
	p.grew = false
	return g
}

func one[T fyne.CanvasObject](o T) []fyne.CanvasObject { return []fyne.CanvasObject{o} }

// NewLinePool is a pool of lines.
func NewLinePool() *Pool[*canvas.Line] {
	return NewPool(func() *canvas.Line { return &canvas.Line{} }, one[*canvas.Line])
}

// NewRectPool is a pool of rectangles.
func NewRectPool() *Pool[*canvas.Rectangle] {
	return NewPool(func() *canvas.Rectangle { return &canvas.Rectangle{} }, one[*canvas.Rectangle])
}

// NewTextPool is a pool of texts of one size and weight.
func NewTextPool(size float32, bold bool) *Pool[*canvas.Text] {
	return NewPool(func() *canvas.Text { return NewText(size, bold) }, one[*canvas.Text])
}

// Pools is a renderer's pools in drawing order.
type Pools []interface {
	Reset()
	hideRest()
	objects() []fyne.CanvasObject
	takeGrowth() bool
}

// Reset starts a frame in every pool.
func (ps Pools) Reset() {
	for _, p := range ps {
		p.Reset()
	}
}

// Finish hides what the frame did not use and, when a pool grew, returns
// the new object list (nil when the old one still holds).
func (ps Pools) Finish() []fyne.CanvasObject {
	grew := false
	for _, p := range ps {
		p.hideRest()
		if p.takeGrowth() {
			grew = true
		}
	}
	if !grew {
		return nil
	}
	return ps.All()
}

// all lists every object of every pool in drawing order.
func (ps Pools) All() []fyne.CanvasObject {
	out := []fyne.CanvasObject{}
	for _, p := range ps {
		out = append(out, p.objects()...)
	}
	return out
}
