import Foundation
import MoyaCompiler
import MoyaSpec
import XCTest

@testable import MoyaCLI

/// A call reads its spec once: the folder's trust digests the spec from the bytes the compiler
/// read, and that digest is the one reading the file gives, for a file and for a link out of
/// the folder alike; other bytes give another digest.
final class SpecTrustDigestTests: XCTestCase {
    func testTheCompilersBytesDigestAsTheFileDoes() throws {
        let folder = NSTemporaryDirectory() + "moya-cli-trust-digest-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/specs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = "service: a\nbaseURL: http://127.0.0.1:9\ntargets:\n  t:\n    path: /t\n"
        let linked = "service: b\nbaseURL: http://127.0.0.1:9\ntargets:\n  u:\n    path: /u\n"
        try plain.write(toFile: folder + "/specs/a.yaml", atomically: true, encoding: .utf8)
        try linked.write(toFile: folder + "/b-elsewhere.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/specs/b.yaml", withDestinationPath: folder + "/b-elsewhere.yaml")
        let specs = try XCTUnwrap(FileRoot.realPath(folder + "/specs"))
        let read = SpecTrust.digest(of: specs)
        // Named as the library names a found folder's file, relative or not.
        XCTAssertEqual(SpecTrust.digest(of: specs, reading: (specs + "/a.yaml", Array(plain.utf8))), read)
        XCTAssertEqual(SpecTrust.digest(of: specs, reading: (folder + "/specs/b.yaml", Array(linked.utf8))), read)
        XCTAssertNotEqual(
            SpecTrust.digest(of: specs, reading: (specs + "/a.yaml", Array((plain + "# more\n").utf8))), read)
        XCTAssertNotEqual(SpecTrust.digest(of: specs, reading: (specs + "/b.yaml", Array(plain.utf8))), read)
    }
}
