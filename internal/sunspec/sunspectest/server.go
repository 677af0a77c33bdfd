package sunspectest

import (
	"io"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simonvetter/modbus"
)

// Image is a device's holding registers.
type Image struct {
	mu   sync.Mutex
	regs [65536]uint16
}

// NewImage returns an image with every register 0.
func NewImage() *Image { return &Image{} }

// PutSunSpec writes the marker at base, the model blocks after it and the end marker.
func (im *Image) PutSunSpec(base uint16, blocks ...[]uint16) {
	addr := base
	im.Set(addr, 0x5375, 0x6E53)
	addr += 2
	for _, b := range blocks {
		im.Set(addr, b...)
		addr += uint16(len(b))
	}
	im.Set(addr, 0xFFFF, 0)
}

// Set writes registers from addr on.
func (im *Image) Set(addr uint16, vals ...uint16) {
	im.mu.Lock()
	defer im.mu.Unlock()
	for i, v := range vals {
		im.regs[int(addr)+i] = v
	}
}

// Get reads n registers from addr on.
func (im *Image) Get(addr, n uint16) []uint16 {
	im.mu.Lock()
	defer im.mu.Unlock()
	return append([]uint16(nil), im.regs[addr:int(addr)+int(n)]...)
}

// Unit is one unit id behind a server.
type Unit struct {
	Image *Image
	// Delay holds every answer this long (a slow device).
	Delay time.Duration
	// Exception, when set, is the Modbus exception every request gets (e.g.
	// modbus.ErrServerDeviceFailure).
	Exception error
	// Input, when set, holds the input registers (function 4) apart from the holding
	// ones, as on devices whose two tables mean different things at one address.
	Input *Image
	// Coils and Discrete, when set, serve functions 1 and 2: a bit is on where its
	// word is non-zero. Unset, those functions are refused.
	Coils, Discrete *Image
}

// Server is a real Modbus TCP server on loopback serving images by unit id.
type Server struct {
	Addr     string
	srv      *modbus.ModbusServer
	mu       sync.Mutex
	units    map[uint8]*Unit
	clients  map[string]bool
	inFlight atomic.Int32
	// MaxInFlight is the most requests the server was ever answering at once.
	MaxInFlight atomic.Int32
	Requests    atomic.Int64
}

// FreeAddr returns a loopback address with a free port.
func FreeAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// Serve starts a server for units; it stops with the test.
func Serve(tb testing.TB, units map[uint8]*Unit) *Server {
	tb.Helper()
	var s *Server
	var err error
	for range 5 {
		if s, err = Start(FreeAddr(tb), units); err == nil {
			break
		}
	}
	if err != nil {
		tb.Fatalf("no Modbus server: %v", err)
	}
	tb.Cleanup(s.Stop)
	return s
}

// Start serves units at addr (host:port) until Stop.
func Start(addr string, units map[uint8]*Unit) (*Server, error) {
	s := &Server{Addr: addr, units: units, clients: map[string]bool{}}
	srv, err := modbus.NewServer(&modbus.ServerConfiguration{URL: "tcp://" + addr, Timeout: time.Minute,
		MaxClients: 64, Logger: log.New(io.Discard, "", 0)}, s)
	if err != nil {
		return nil, err
	}
	if err := srv.Start(); err != nil {
		return nil, err
	}
	s.srv = srv
	return s, nil
}

// Stop closes the server.
func (s *Server) Stop() { _ = s.srv.Stop() }

// Clients is the number of distinct client connections seen.
func (s *Server) Clients() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clients)
}

func (s *Server) unit(id uint8, client string) (*Unit, error) {
	s.Requests.Add(1)
	s.mu.Lock()
	s.clients[client] = true
	u := s.units[id]
	s.mu.Unlock()
	if u == nil {
		return nil, modbus.ErrGWTargetFailedToRespond
	}
	if u.Delay > 0 {
		time.Sleep(u.Delay)
	}
	if u.Exception != nil {
		return nil, u.Exception
	}
	return u, nil
}

func (s *Server) enter() func() {
	n := s.inFlight.Add(1)
	for {
		m := s.MaxInFlight.Load()
		if n <= m || s.MaxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	return func() { s.inFlight.Add(-1) }
}

// HandleHoldingRegisters serves reads and writes of the unit's image.
func (s *Server) HandleHoldingRegisters(req *modbus.HoldingRegistersRequest) ([]uint16, error) {
	defer s.enter()()
	u, err := s.unit(req.UnitId, req.ClientAddr)
	if err != nil {
		return nil, err
	}
	if int(req.Addr)+int(req.Quantity) > 65536 {
		return nil, modbus.ErrIllegalDataAddress
	}
	if req.IsWrite {
		u.Image.Set(req.Addr, req.Args...)
		return nil, nil
	}
	return u.Image.Get(req.Addr, req.Quantity), nil
}

// HandleInputRegisters serves input registers from the same image.
func (s *Server) HandleInputRegisters(req *modbus.InputRegistersRequest) ([]uint16, error) {
	defer s.enter()()
	u, err := s.unit(req.UnitId, req.ClientAddr)
	if err != nil {
		return nil, err
	}
	if int(req.Addr)+int(req.Quantity) > 65536 {
		return nil, modbus.ErrIllegalDataAddress
	}
	if u.Input != nil {
		return u.Input.Get(req.Addr, req.Quantity), nil
	}
	return u.Image.Get(req.Addr, req.Quantity), nil
}

// HandleCoils serves the unit's coils (refused when it has none); writes are refused.
func (s *Server) HandleCoils(req *modbus.CoilsRequest) ([]bool, error) {
	defer s.enter()()
	u, err := s.unit(req.UnitId, req.ClientAddr)
	if err != nil {
		return nil, err
	}
	if u.Coils == nil || req.IsWrite {
		return nil, modbus.ErrIllegalFunction
	}
	return bits(u.Coils, req.Addr, req.Quantity)
}

// HandleDiscreteInputs serves the unit's discrete inputs (refused when it has none).
func (s *Server) HandleDiscreteInputs(req *modbus.DiscreteInputsRequest) ([]bool, error) {
	defer s.enter()()
	u, err := s.unit(req.UnitId, req.ClientAddr)
	if err != nil {
		return nil, err
	}
	if u.Discrete == nil {
		return nil, modbus.ErrIllegalFunction
	}
	return bits(u.Discrete, req.Addr, req.Quantity)
}

func bits(im *Image, addr, n uint16) ([]bool, error) {
	if int(addr)+int(n) > 65536 {
		return nil, modbus.ErrIllegalDataAddress
	}
	out := make([]bool, n)
	for i, w := range im.Get(addr, n) {
		out[i] = w != 0
	}
	return out, nil
}
