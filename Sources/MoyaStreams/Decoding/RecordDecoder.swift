/// Reads a body of delimited JSON texts into events: NDJSON, a text a line (LF, with a CR
/// before it dropped), or RFC 7464 JSON text sequences, a record after each record separator
/// (0x1E). A blank line or an empty record is no event; a last text the stream ends without
/// its delimiter is one. What is held never passes `limit` bytes.
public struct RecordDecoder: Sendable {
    /// The most bytes of one record held.
    public let limit: Int
    private let separator: UInt8
    private var record: [UInt8] = []

    /// A decoder for NDJSON (`separator` LF) or JSON text sequences (0x1E).
    public init(kind: StreamKind, limit: Int) {
        self.limit = limit
        separator = kind == .jsonSeq ? 0x1E : 0x0A
    }

    /// Reads `bytes`, handing each record they complete to `dispatch`.
    public mutating func decode(
        _ bytes: UnsafeRawBufferPointer, next index: inout Int, dispatch: (StreamEvent) throws -> Void
    ) throws {
        var position = bytes.startIndex
        while position < bytes.endIndex {
            let end = bytes[position...].firstIndex(of: separator) ?? bytes.endIndex
            guard end - position <= limit - record.count else { throw StreamTooLarge(limit: limit) }
            record.append(contentsOf: bytes[position..<end])
            guard end < bytes.endIndex else { return }
            try finishRecord(next: &index, dispatch: dispatch)
            position = end + 1
        }
    }

    /// Dispatches a last record the stream ended without its delimiter.
    public mutating func finish(next index: inout Int, dispatch: (StreamEvent) throws -> Void) throws {
        try finishRecord(next: &index, dispatch: dispatch)
    }

    private mutating func finishRecord(next index: inout Int, dispatch: (StreamEvent) throws -> Void) throws {
        defer { record.removeAll(keepingCapacity: true) }
        var end = record.endIndex
        while end > record.startIndex, Self.isSpace(record[end - 1]) { end -= 1 }
        var start = record.startIndex
        while start < end, Self.isSpace(record[start]) { start += 1 }
        guard start < end else { return }
        let event = StreamEvent(index: index, data: String(decoding: record[start..<end], as: UTF8.self))
        index += 1
        try dispatch(event)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
