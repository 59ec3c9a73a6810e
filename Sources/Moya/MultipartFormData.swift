import MoyaCore

/// A `multipart/form-data` body: its parts, and optionally its boundary.
public struct MultipartFormData: Hashable {
    /// Where a part's bytes come from.
    public enum FormDataProvider: Hashable {
        /// Bytes in memory.
        case data(Foundation.Data)
        /// The contents of a local file.
        case file(URL)
        /// `length` bytes read from a stream.
        case stream(InputStream, UInt64)
    }

    /// The file manager file parts are read with.
    public let fileManager: FileManager
    /// The boundary between parts; nil picks a random one.
    public let boundary: String?
    /// The parts, in order.
    public let parts: [MultipartFormBodyPart]

    /// Creates a body.
    public init(fileManager: FileManager = .default, boundary: String? = nil, parts: [MultipartFormBodyPart]) {
        self.fileManager = fileManager
        self.boundary = boundary
        self.parts = parts
    }

    /// The same body for MoyaCore, which writes it; a stream part is read whole here.
    func core() throws -> MoyaCore.MultipartFormData {
        var coreParts: [MoyaCore.MultipartFormBodyPart] = []
        for part in parts {
            let provider: MoyaCore.MultipartFormBodyPart.Provider
            switch part.provider {
            case .data(let data): provider = .data(data)
            case .file(let url): provider = .file(url)
            case .stream(let stream, let length): provider = .data(try Self.read(stream, length: length))
            }
            coreParts.append(
                .init(provider: provider, name: part.name, fileName: part.fileName, mimeType: part.mimeType))
        }
        return MoyaCore.MultipartFormData(parts: coreParts, boundary: boundary)
    }

    private static func read(_ stream: InputStream, length: UInt64) throws -> Data {
        guard let wanted = Int(exactly: length) else { throw CocoaError(.fileReadTooLarge) }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while data.count < wanted {
            let count = stream.read(&buffer, maxLength: min(buffer.count, wanted - data.count))
            if count < 0 { throw stream.streamError ?? CocoaError(.fileReadUnknown) }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }
}

extension MultipartFormData {
    /// Equal when the boundaries, the parts and the file managers are.
    public static func == (lhs: MultipartFormData, rhs: MultipartFormData) -> Bool {
        lhs.boundary == rhs.boundary && lhs.parts == rhs.parts && lhs.fileManager === rhs.fileManager
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(boundary)
        hasher.combine(parts)
        hasher.combine(ObjectIdentifier(fileManager))
    }
}

extension MultipartFormData: ExpressibleByArrayLiteral {
    /// A body of these parts.
    public init(arrayLiteral elements: MultipartFormBodyPart...) {
        self.init(parts: elements)
    }
}

/// One part of a `multipart/form-data` body.
public struct MultipartFormBodyPart: Hashable {
    /// Creates a part.
    public init(
        provider: MultipartFormData.FormDataProvider, name: String, fileName: String? = nil, mimeType: String? = nil
    ) {
        self.provider = provider
        self.name = name
        self.fileName = fileName
        self.mimeType = mimeType
    }

    /// Where the bytes come from.
    public let provider: MultipartFormData.FormDataProvider
    /// The form field name.
    public let name: String
    /// The file name sent in `Content-Disposition`, if any.
    public let fileName: String?
    /// The part's `Content-Type`, if any.
    public let mimeType: String?
}
