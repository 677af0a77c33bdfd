package httpapi

import (
	"errors"
	"net/http"
	"time"
)

// CodeSessionEnded is sent (with HTTP 401) when the caller's session was ended elsewhere:
// password reset, account disabled, signed out on another device.
const CodeSessionEnded = 50012

// Error is an API failure: an HTTP status, the envelope code, and a message key that is
// translated for the caller's language when written.
type Error struct {
	Status int
	Code   int
	Key    string
	Args   []any
	// Fields maps each bad input field to the reason (a message key and its arguments).
	Fields map[string]Msg
	// Err is the underlying cause, logged for 500s and never sent.
	Err error
	// RetryAfter, when set, is sent as the Retry-After header (rounded up to seconds).
	RetryAfter time.Duration
}

// Msg is a message key with its arguments, translated when written.
type Msg struct {
	Key  string
	Args []any
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Key + ": " + e.Err.Error()
	}
	return e.Key
}

func (e *Error) Unwrap() error { return e.Err }

func newErr(status int, key string, args ...any) *Error {
	return &Error{Status: status, Code: status, Key: key, Args: args}
}

// BadRequest is a 400 with a general message.
func BadRequest(key string, args ...any) *Error { return newErr(http.StatusBadRequest, key, args...) }

// Invalid is a 400 naming each bad field.
func Invalid(fields map[string]Msg) *Error {
	e := newErr(http.StatusBadRequest, "invalid_input")
	e.Fields = fields
	return e
}

// InvalidField is a 400 naming one bad field.
func InvalidField(field, key string, args ...any) *Error {
	return Invalid(map[string]Msg{field: {Key: key, Args: args}})
}

func Unauthorized() *Error { return newErr(http.StatusUnauthorized, "login_expired") }

// SessionEnded is the 401 whose code (50012) tells the console to show "Confirm logout".
func SessionEnded() *Error {
	e := newErr(http.StatusUnauthorized, "session_ended")
	e.Code = CodeSessionEnded
	return e
}

func Forbidden() *Error                       { return newErr(http.StatusForbidden, "forbidden") }
func NotFound() *Error                        { return newErr(http.StatusNotFound, "not_found") }
func Conflict(key string, args ...any) *Error { return newErr(http.StatusConflict, key, args...) }
func TooLarge(limit int64) *Error {
	return newErr(http.StatusRequestEntityTooLarge, "body_too_large", limit)
}
func UnsupportedMediaType(want string) *Error {
	return newErr(http.StatusUnsupportedMediaType, "wrong_content_type", want)
}
func TooManyRequests(key string, args ...any) *Error {
	return newErr(http.StatusTooManyRequests, key, args...)
}
func MethodNotAllowed() *Error { return newErr(http.StatusMethodNotAllowed, "method_not_allowed") }

// Internal wraps an unexpected failure: logged in full, answered as a bare 500.
func Internal(err error) *Error {
	e := newErr(http.StatusInternalServerError, "internal")
	e.Err = err
	return e
}

// AsError turns any error into an *Error, treating unknown errors as internal.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Internal(err)
}
