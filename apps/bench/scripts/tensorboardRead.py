#!/usr/bin/env python3
"""An independent reader of TensorBoard event files, in the Python standard library only.

A second implementation of the format, written from the specifications and not from the bench's
TypeScript writer, to check that writer's files: TFRecord framing (uint64 length, masked CRC-32C
of the length, data, masked CRC-32C of the data; both CRCs verified), a generic decoder of the
protocol buffers wire format, and the Event / Summary / hparams fields read by field number
(tensorflow/tensorboard tensorboard/compat/proto/event.proto, summary.proto,
tensorboard/plugins/hparams/plugin_data.proto). Images are checked as PNG (chunk CRCs, IHDR size,
inflated scanline length).

Usage: tensorboardRead.py <run dir or events file>...   prints one JSON object on stdout:
  {"files", "records", "fileVersions", "sessionStarts", "scalars": {tag: [[step, value], ...]},
   "images": {tag: [{"step", "width", "height", "png": {"width", "height"}}]},
   "hparams": {name: value}, "sessionEnd": {"status", "endTime"}}
Scalars follow TensorBoard's restart rule: a SessionLog START after a run's first drops the points
read so far at steps >= its step. Exit status 1, with the reason on stderr, for a bad checksum or
a file that is not an events file.
"""
import json
import os
import struct
import sys
import zlib

CRC32C_POLY = 0x82F63B78  # Castagnoli, reflected
_TABLE = []
for n in range(256):
    c = n
    for _ in range(8):
        c = (c >> 1) ^ CRC32C_POLY if c & 1 else c >> 1
    _TABLE.append(c)


class FormatError(Exception):
    pass


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def records(path):
    """The data of each TFRecord of a file, both checksums verified."""
    with open(path, "rb") as f:
        raw = f.read()
    at = 0
    while at < len(raw):
        if len(raw) - at < 12:
            raise FormatError(f"{path}: truncated record header at byte {at}")
        header = raw[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", raw[at + 8:at + 12])
        if header_crc != masked(header):
            raise FormatError(f"{path}: length checksum mismatch at byte {at}")
        data = raw[at + 12:at + 12 + length]
        if len(data) != length or len(raw) < at + 16 + length:
            raise FormatError(f"{path}: truncated record at byte {at}")
        (data_crc,) = struct.unpack("<I", raw[at + 12 + length:at + 16 + length])
        if data_crc != masked(data):
            raise FormatError(f"{path}: data checksum mismatch at byte {at}")
        yield data
        at += 16 + length


def varint(buf, at):
    value, shift = 0, 0
    while True:
        if at >= len(buf):
            raise FormatError("varint runs past the message")
        b = buf[at]
        value |= (b & 0x7F) << shift
        at += 1
        if b < 0x80:
            return value, at
        shift += 7


def fields(buf):
    """The (field number, wire type, raw value) of a message, in order: varints as ints,
    fixed64 / fixed32 and length-delimited fields as bytes."""
    out, at = [], 0
    while at < len(buf):
        key, at = varint(buf, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(buf, at)
        elif wire == 1:
            value, at = buf[at:at + 8], at + 8
        elif wire == 5:
            value, at = buf[at:at + 4], at + 4
        elif wire == 2:
            length, at = varint(buf, at)
            value, at = buf[at:at + length], at + length
        else:
            raise FormatError(f"unsupported wire type {wire}")
        if at > len(buf):
            raise FormatError("field runs past the message")
        out.append((number, wire, value))
    return out


def first(msg, number, default=None):
    for n, _, v in fields(msg):
        if n == number:
            return v
    return default


def double(b):
    return struct.unpack("<d", b)[0]


def png_size(data):
    """Width and height of a PNG, every chunk's CRC-32 and the inflated data's length checked."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise FormatError("image is not a PNG")
    at, size, idat = 8, None, b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind = data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if crc != zlib.crc32(kind + body):
            raise FormatError(f"PNG chunk {kind!r} checksum mismatch")
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            size = (width, height, depth, colour)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour = size
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    if depth != 8 or len(zlib.decompress(idat)) != height * (1 + width * channels):
        raise FormatError("PNG data does not match its IHDR size")
    return {"width": width, "height": height}


def hparam_value(msg):
    n, _, v = fields(msg)[0]
    if n == 2:
        return double(v)
    if n == 3:
        return v.decode("utf-8")
    if n == 4:
        return bool(v)
    return None


def read_plugin_value(value, out):
    metadata = first(value, 9)
    plugin = first(metadata, 1) if metadata is not None else None
    if plugin is None or first(plugin, 1, b"").decode() != "hparams":
        return
    content = first(plugin, 2, b"")
    for n, _, v in fields(content):
        if n == 3:  # session_start_info
            for m, _, entry in fields(v):
                if m == 1:
                    name = first(entry, 1, b"").decode("utf-8")
                    out["hparams"][name] = hparam_value(first(entry, 2, b""))
        elif n == 4:  # session_end_info
            out["sessionEnd"] = {
                "status": first(v, 1, 0),
                "endTime": double(first(v, 2, b"\0" * 8)),
            }


def read_value(step, value, out):
    tag = first(value, 1, b"").decode("utf-8")
    for n, _, v in fields(value):
        if n == 2:
            out["scalars"].setdefault(tag, []).append([step, struct.unpack("<f", v)[0]])
        elif n == 4:
            encoded = first(v, 4, b"")
            out["images"].setdefault(tag, []).append({
                "step": step,
                "width": first(v, 2, 0),
                "height": first(v, 1, 0),
                "colorspace": first(v, 3, 0),
                "png": png_size(encoded),
            })
    read_plugin_value(value, out)


def read_event(data, out):
    step = first(data, 2, 0)
    for n, _, v in fields(data):
        if n == 3:
            out["fileVersions"].append(v.decode("utf-8"))
        elif n == 7 and first(v, 1, 0) == 1:  # SessionLog START
            if out["sessionStarts"]:
                for tag, points in out["scalars"].items():
                    out["scalars"][tag] = [p for p in points if p[0] < step]
            out["sessionStarts"].append(step)
        elif n == 5:
            for m, _, value in fields(v):
                if m == 1:
                    read_value(step, value, out)


def event_files(paths):
    for path in paths:
        if os.path.isdir(path):
            yield from sorted(
                os.path.join(path, name) for name in os.listdir(path) if "tfevents" in name
            )
        else:
            yield path


def main(paths):
    out = {"files": [], "records": 0, "fileVersions": [], "sessionStarts": [],
           "scalars": {}, "images": {}, "hparams": {}, "sessionEnd": None}
    for path in event_files(paths):
        out["files"].append(os.path.basename(path))
        for data in records(path):
            out["records"] += 1
            read_event(data, out)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except (FormatError, struct.error, zlib.error, IndexError, KeyError, TypeError) as error:
        print(f"tensorboardRead: {error}", file=sys.stderr)
        sys.exit(1)
