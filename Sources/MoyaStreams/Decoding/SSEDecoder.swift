/// Reads a `text/event-stream` body into events by the WHATWG rules
/// (HTML, "Interpreting an event stream"): lines end at CR, LF or CRLF, even split across
/// chunks; one leading byte order mark is dropped; `:` starts a comment; a field's value loses
/// one leading space; `data` lines join with line feeds; an `id` holding NUL is ignored;
/// `retry` takes ASCII digits only; a blank line dispatches the event unless no `data` line
/// came; and an event the stream ends inside is never dispatched.
///
/// Bytes are read as they come, so a chunk may end anywhere. What is held (the line not yet
/// ended and the event not yet dispatched) never passes `limit` bytes.
public struct SSEDecoder: Sendable {
    /// The most bytes of one event held before it is dispatched.
    public let limit: Int
    /// The last event ID: it carries over from event to event, as a resumed stream sends it.
    public private(set) var lastEventID = ""
    /// The reconnection time the stream last set, in ms.
    public private(set) var reconnectionTime: Int?

    private var line: [UInt8] = []
    private var afterCR = false
    /// The leading bytes while they may still be a byte order mark; nil once they are not.
    private var start: [UInt8]? = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: [UInt8] = []
    /// The last event type dispatched, so that a stream of one type makes its string once.
    private var lastType = ""
    private var retry: Int?
    private var held = 0

    /// A decoder that holds at most `limit` bytes of one event.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Takes an earlier connection's last event ID and reconnection time.
    mutating func resume(lastEventID: String, reconnectionTime: Int?) {
        self.lastEventID = lastEventID
        self.reconnectionTime = reconnectionTime
    }

    /// Reads `bytes`, handing each event they complete to `dispatch`, which numbers them.
    public mutating func decode(
        _ bytes: UnsafeRawBufferPointer, next index: inout Int, dispatch: (StreamEvent) throws -> Void
    ) throws {
        var bytes = bytes[...]
        if var leading = start {
            // One byte order mark at the very start is dropped, even when it is split.
            let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
            while leading.count < 3, let byte = bytes.first, byte == mark[leading.count] {
                leading.append(byte)
                bytes = bytes.dropFirst()
            }
            if leading.count == 3 {
                start = nil
            } else if bytes.isEmpty {
                start = leading
                return
            } else {
                start = nil
                if !leading.isEmpty {
                    try leading.withUnsafeBytes { try decodeLines($0[...], next: &index, dispatch: dispatch) }
                }
            }
        }
        try decodeLines(bytes, next: &index, dispatch: dispatch)
    }

    private mutating func decodeLines(
        _ bytes: Slice<UnsafeRawBufferPointer>, next index: inout Int, dispatch: (StreamEvent) throws -> Void
    ) throws {
        var position = bytes.startIndex
        if afterCR, position < bytes.endIndex {
            afterCR = false
            if bytes[position] == 0x0A { position += 1 }
        }
        while position < bytes.endIndex {
            var end = position
            while end < bytes.endIndex, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            guard end < bytes.endIndex else {
                try hold(bytes[position..<end])
                return
            }
            if line.isEmpty {
                try field(UnsafeRawBufferPointer(rebasing: bytes[position..<end]), next: &index, dispatch: dispatch)
            } else {
                try hold(bytes[position..<end])
                let whole = line
                line.removeAll(keepingCapacity: true)
                try whole.withUnsafeBytes { try field($0, next: &index, dispatch: dispatch) }
            }
            if bytes[end] == 0x0D {
                if end + 1 < bytes.endIndex {
                    if bytes[end + 1] == 0x0A { end += 1 }
                } else {
                    afterCR = true
                }
            }
            position = end + 1
        }
    }

    private mutating func hold(_ bytes: Slice<UnsafeRawBufferPointer>) throws {
        guard bytes.count <= limit - held - line.count else { throw StreamTooLarge(limit: limit) }
        line.append(contentsOf: bytes)
    }

    /// Processes one line, by the WHATWG rules.
    private mutating func field(
        _ line: UnsafeRawBufferPointer, next index: inout Int, dispatch: (StreamEvent) throws -> Void
    ) throws {
        guard let first = line.first else {
            try dispatchEvent(next: &index, dispatch: dispatch)
            return
        }
        if first == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let name = line[..<colon]
        var valueStart = colon
        if valueStart < line.endIndex {
            valueStart += 1
            if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        }
        let value = line[valueStart...]
        // Field names compared as bytes: this runs for every line of a fast stream.
        if Self.named(name, "data") {
            guard value.count + 1 <= limit - held else { throw StreamTooLarge(limit: limit) }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
            held += value.count + 1
        } else if Self.named(name, "event") {
            eventType.removeAll(keepingCapacity: true)
            eventType.append(contentsOf: value)
        } else if Self.named(name, "id") {
            if !value.contains(0), !value.elementsEqual(lastEventID.utf8) {
                lastEventID = String(decoding: value, as: UTF8.self)
            }
        } else if Self.named(name, "retry") {
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                retry = milliseconds
                reconnectionTime = milliseconds
            }
        }
    }

    /// Whether a field's name is `literal`, byte for byte.
    private static func named(_ name: Slice<UnsafeRawBufferPointer>, _ literal: StaticString) -> Bool {
        guard name.count == literal.utf8CodeUnitCount else { return false }
        var offset = 0
        for byte in name {
            guard byte == literal.utf8Start[offset] else { return false }
            offset += 1
        }
        return true
    }

    private mutating func dispatchEvent(next index: inout Int, dispatch: (StreamEvent) throws -> Void) throws {
        defer {
            data.removeAll(keepingCapacity: true)
            eventType.removeAll(keepingCapacity: true)
            hasData = false
            retry = nil
            held = 0
        }
        guard hasData else { return }
        if !eventType.elementsEqual(lastType.utf8) { lastType = String(decoding: eventType, as: UTF8.self) }
        let event = StreamEvent(
            index: index, event: eventType.isEmpty ? "message" : lastType,
            id: lastEventID.isEmpty ? nil : lastEventID, data: String(decoding: data, as: UTF8.self), retry: retry)
        index += 1
        try dispatch(event)
    }
}

/// One event, or one line not yet ended, grew past the most a stream holds.
public struct StreamTooLarge: Error, Sendable {
    /// The most bytes held.
    public let limit: Int
}
