import MoyaHTTP
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A local file read in chunks, for streaming an upload body.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let path: String
    let size: Int64

    init(path: String) throws(NetworkError) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw NetworkError(.fileFailed, "cannot read \(path)")
        }
        self.path = path
        size = Int64(info.st_size)
    }

    /// An open file, closed when the last iterator holding it goes: a transfer that is
    /// cancelled or retried part-way never leaks its descriptor.
    final class OpenFile {
        let descriptor: Int32
        init(_ descriptor: Int32) { self.descriptor = descriptor }
        deinit { _ = SystemCall.close(descriptor) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let path: String
        var file: OpenFile?
        var finished = false

        mutating func next() async throws -> ByteBuffer? {
            guard !finished else { return nil }
            if file == nil {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw NetworkError(.fileFailed, "cannot open \(path)") }
                file = OpenFile(descriptor)
            }
            guard let descriptor = file?.descriptor else { return nil }
            var buffer = ByteBufferAllocator().buffer(capacity: 1 << 16)
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 1 << 16) { raw in
                read(descriptor, raw.baseAddress, raw.count)
            }
            if count <= 0 {
                file = nil
                finished = true
                if count < 0 { throw NetworkError(.fileFailed, "cannot read \(path)") }
                return nil
            }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(path: path)
    }
}
