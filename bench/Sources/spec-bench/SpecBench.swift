import CLibYAML
import Foundation
import MoyaCompiler
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Times, in process, libyaml's raw load of a spec file against moya-cli's whole compile of it,
/// and prints the medians and their ratio.
@main
struct SpecBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            print("usage: spec-bench FILE [RUNS]")
            exit(64)
        }
        let file = arguments[1]
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 21 : 21
        guard let handle = fopen(file, "rb") else {
            print("cannot open \(file)")
            exit(66)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, handle)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        fclose(handle)

        let compiler = SpecCompiler(environment: [:])
        var raw: [Double] = []
        var tree: [Double] = []
        var compile: [Double] = []
        for _ in 0..<runs {
            raw.append(time { rawLoad(bytes) })
            tree.append(time { _ = try? YAMLLoader.load(bytes) })
            compile.append(time { _ = try? compiler.compile(bytes, file: file) })
        }
        let rawMedian = median(raw)
        let treeMedian = median(tree)
        let compileMedian = median(compile)
        print("file: \(file) (\(bytes.count) bytes), \(runs) runs, medians:")
        print(String(format: "  libyaml load (document API):  %8.2f ms", rawMedian))
        print(String(format: "  load into YAMLNode tree:      %8.2f ms", treeMedian))
        print(String(format: "  whole compile:                %8.2f ms", compileMedian))
        print(String(format: "  compile / libyaml load:       %8.2fx", compileMedian / rawMedian))
    }

    static func rawLoad(_ bytes: [UInt8]) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var document = yaml_document_t()
            if yaml_parser_load(&parser, &document) == 1 { yaml_document_delete(&document) }
        }
    }

    static func time(_ body: () -> Void) -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) * 1000 + Double(end.tv_nsec - start.tv_nsec) / 1_000_000
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
