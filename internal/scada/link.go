package scada

import (
	"errors"
	"io"
	"log"
	"time"

	"github.com/simonvetter/modbus"
)

// exception is a Modbus exception answer: the device (or gateway) is there and refused
// one request; the connection stays up.
type exception struct{ err error }

func (e exception) Error() string   { return "device answered: " + e.err.Error() }
func (e exception) Unwrap() error   { return e.err }
func (e exception) Exception() bool { return true }

var exceptions = []error{modbus.ErrIllegalFunction, modbus.ErrIllegalDataAddress, modbus.ErrIllegalDataValue,
	modbus.ErrServerDeviceFailure, modbus.ErrAcknowledge, modbus.ErrServerDeviceBusy, modbus.ErrMemoryParityError,
	modbus.ErrGWPathUnavailable, modbus.ErrGWTargetFailedToRespond}

func classify(err error) error {
	if err == nil {
		return nil
	}
	for _, x := range exceptions {
		if errors.Is(err, x) {
			return exception{err}
		}
	}
	return err
}

// IsException reports whether err is the device's refusal rather than a broken link.
func IsException(err error) bool {
	var e exception
	return errors.As(err, &e)
}

var quiet = log.New(io.Discard, "", 0)

// link is one open Modbus TCP connection (to a device or a gateway). Only its endpoint's
// goroutine uses it, so requests never overlap on the wire.
type link struct {
	c    *modbus.ModbusClient
	unit uint8
}

func dial(addr string, timeout time.Duration) (*link, error) {
	c, err := modbus.NewClient(&modbus.ClientConfiguration{URL: "tcp://" + addr, Timeout: timeout, Logger: quiet})
	if err != nil {
		return nil, err
	}
	if err := c.Open(); err != nil {
		return nil, err
	}
	return &link{c: c}, nil
}

func (l *link) close() { _ = l.c.Close() }

func (l *link) setUnit(u uint8) {
	if l.unit != u {
		_ = l.c.SetUnitId(u)
		l.unit = u
	}
}

// read reads count registers of a function (holding or input).
func (l *link) read(function string, addr, count uint16) ([]uint16, error) {
	t := modbus.HOLDING_REGISTER
	if function == "input" {
		t = modbus.INPUT_REGISTER
	}
	v, err := l.c.ReadRegisters(addr, count, t)
	return v, classify(err)
}

// readBits reads count coils or discrete inputs, one word (0 or 1) per bit.
func (l *link) readBits(function string, addr, count uint16) ([]uint16, error) {
	var v []bool
	var err error
	if function == "coil" {
		v, err = l.c.ReadCoils(addr, count)
	} else {
		v, err = l.c.ReadDiscreteInputs(addr, count)
	}
	if err != nil {
		return nil, classify(err)
	}
	out := make([]uint16, len(v))
	for i, b := range v {
		if b {
			out[i] = 1
		}
	}
	return out, nil
}

func (l *link) write(addr uint16, words []uint16) error {
	if len(words) == 1 {
		return classify(l.c.WriteRegister(addr, words[0]))
	}
	return classify(l.c.WriteRegisters(addr, words))
}

// unitReader reads one unit's holding registers (sunspec.Reader).
type unitReader struct {
	l    *link
	unit uint8
}

func (r unitReader) ReadHolding(addr, count uint16) ([]uint16, error) {
	r.l.setUnit(r.unit)
	return r.l.read("holding", addr, count)
}
