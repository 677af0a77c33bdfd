import { serverKey } from './service-worker';

describe('serverKey', () => {
  it('reads the server’s base64url key into the bytes PushManager.subscribe takes', () => {
    // a P-256 point is 65 bytes, the first 0x04 (uncompressed)
    const key = 'BEYwj8Tqw4og2TPfWWdL7bbipqByR25pJD3WHoOACUoF8M4bsGlGmn3NJUi5WdHbINrsL2D0xl723b_yo9iiaY0';
    const bytes = serverKey(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
    expect(bytes[64]).toBe(0x8d);
    expect(Array.from(serverKey('-_8'))).toEqual([0xfb, 0xff]);
  });
});
