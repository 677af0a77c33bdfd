package main

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// rawConn is the smallest WebSocket client the measurement needs (RFC 6455): it reads
// the server's unmasked text frames into one reused buffer and answers pings. The
// clients stand in for browsers on other machines; on this machine they share the
// server's cores, so the less they cost, the less they distort what is measured.
type rawConn struct {
	c   net.Conn
	r   *bufio.Reader
	buf []byte
}

// rawDial opens a WebSocket to a ws:// URL.
func rawDial(rawURL string, timeout time.Duration) (*rawConn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	c, err := net.DialTimeout("tcp", u.Host, timeout)
	if err != nil {
		return nil, err
	}
	var k [16]byte
	_, _ = rand.Read(k[:])
	key := base64.StdEncoding.EncodeToString(k[:])
	_ = c.SetDeadline(time.Now().Add(timeout))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
		u.RequestURI(), u.Host, key)
	r := bufio.NewReaderSize(c, 4096)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	resp.Body.Close()
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		c.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	_ = c.SetDeadline(time.Time{})
	return &rawConn{c: c, r: r, buf: make([]byte, 0, 4096)}, nil
}

// next returns the next complete text message (valid until the following call),
// answering pings and skipping other control frames on the way.
func (w *rawConn) next() ([]byte, error) {
	w.buf = w.buf[:0]
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var e [2]byte
			if _, err := io.ReadFull(w.r, e[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(e[:]))
		case 127:
			var e [8]byte
			if _, err := io.ReadFull(w.r, e[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(e[:])
		}
		if h[1]&0x80 != 0 || n > 1<<20 {
			return nil, errors.New("websocket: masked or oversized server frame")
		}
		start := len(w.buf)
		w.buf = append(w.buf, make([]byte, n)...)
		if _, err := io.ReadFull(w.r, w.buf[start:]); err != nil {
			return nil, err
		}
		switch op {
		case 0x8: // close
			return nil, io.EOF
		case 0x9: // ping: pong with the same payload
			payload := append([]byte(nil), w.buf[start:]...)
			w.buf = w.buf[:start]
			if err := w.control(0xA, payload); err != nil {
				return nil, err
			}
			continue
		case 0xA: // pong
			w.buf = w.buf[:start]
			continue
		}
		if fin {
			return w.buf, nil
		}
	}
}

// control writes a masked control frame (a client's frames are masked).
func (w *rawConn) control(op byte, payload []byte) error {
	var mask [4]byte
	_, _ = rand.Read(mask[:])
	f := make([]byte, 0, 6+len(payload))
	f = append(f, 0x80|op, 0x80|byte(len(payload)))
	f = append(f, mask[:]...)
	for i, b := range payload {
		f = append(f, b^mask[i%4])
	}
	_, err := w.c.Write(f)
	return err
}

func (w *rawConn) Close() error { return w.c.Close() }

// strip keeps the scheme://host of a URL for error messages.
func strip(u string) string { return strings.SplitN(u, "?", 2)[0] }
