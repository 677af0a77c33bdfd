import { createServer, type Server, type Socket } from 'node:net';

/**
 * A SunSpec inverter on a real Modbus TCP socket for the browser tests: the marker at 40000, the
 * common model (1) and a three-phase inverter (103) with scale factors, then the end marker.
 * It answers "read holding registers" (function 3); anything else gets exception 1.
 */
export interface ModbusDevice {
  port: number;
  requests: () => number;
  close: () => Promise<void>;
}

const NOT_IMPLEMENTED = 0x8000;

function text(words: number[], at: number, value: string, size: number) {
  for (let i = 0; i < size * 2; i += 2) {
    words[at + i / 2] = ((value.charCodeAt(i) || 0) << 8) | (value.charCodeAt(i + 1) || 0);
  }
}

/** The register image: address → word. */
export function sunspecInverter(watts: number, wattHours: number): Map<number, number> {
  const image = new Map<number, number>();
  const put = (addr: number, words: number[]) => words.forEach((w, i) => image.set(addr + i, w & 0xffff));
  put(40000, [0x5375, 0x6e53]);
  const common = new Array<number>(68).fill(0);
  common[0] = 1;
  common[1] = 66;
  text(common, 2, 'Helio', 16);
  text(common, 18, 'E2E-103', 16);
  text(common, 50, 'E2E0001', 16);
  put(40002, common);
  const inv = new Array<number>(52).fill(NOT_IMPLEMENTED);
  inv[0] = 103;
  inv[1] = 50;
  inv[10] = 230; // PhVphA, V_SF 0
  inv[13] = 0;
  inv[14] = watts; // W, W_SF 0
  inv[15] = 0;
  inv[16] = 5000; // Hz, Hz_SF -2
  inv[17] = -2;
  inv[24] = Math.floor(wattHours / 65536); // WH (acc32), WH_SF 0
  inv[25] = wattHours % 65536;
  inv[26] = 0;
  inv[27] = 200; // DCA, DCA_SF -1
  inv[28] = -1;
  inv[29] = 600; // DCV, DCV_SF 0
  inv[30] = 0;
  inv[33] = 41; // TmpCab, Tmp_SF 0
  inv[37] = 0;
  inv[38] = 4; // St: MPPT
  put(40070, inv);
  put(40122, [0xffff, 0]);
  return image;
}

function answer(image: Map<number, number>, frame: Buffer): Buffer {
  const txn = frame.readUInt16BE(0);
  const unit = frame.readUInt8(6);
  const fc = frame.readUInt8(7);
  const pdu = (body: Buffer) => {
    const head = Buffer.alloc(7);
    head.writeUInt16BE(txn, 0);
    head.writeUInt16BE(0, 2);
    head.writeUInt16BE(body.length + 1, 4);
    head.writeUInt8(unit, 6);
    return Buffer.concat([head, body]);
  };
  if (fc !== 3 || frame.length < 12) {
    return pdu(Buffer.from([fc | 0x80, 1]));
  }
  const addr = frame.readUInt16BE(8);
  const count = frame.readUInt16BE(10);
  if (count < 1 || count > 125 || addr + count > 65536) {
    return pdu(Buffer.from([fc | 0x80, 2]));
  }
  const body = Buffer.alloc(2 + count * 2);
  body.writeUInt8(fc, 0);
  body.writeUInt8(count * 2, 1);
  for (let i = 0; i < count; i++) {
    body.writeUInt16BE(image.get(addr + i) ?? 0, 2 + i * 2);
  }
  return pdu(body);
}

/** Starts the device on a free loopback port. */
export function startModbusDevice(image: Map<number, number>): Promise<ModbusDevice> {
  let served = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 7) {
        const length = pending.readUInt16BE(4);
        if (pending.length < 6 + length) {
          break;
        }
        const frame = pending.subarray(0, 6 + length);
        pending = pending.subarray(6 + length);
        served++;
        socket.write(answer(image, frame));
      }
    });
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      done({
        port,
        requests: () => served,
        close: () =>
          new Promise<void>((closed) => {
            sockets.forEach((s) => s.destroy());
            server.close(() => closed());
          }),
      });
    });
  });
}
