// swift-tools-version:6.1
import PackageDescription

/// Async functions run on their caller's actor unless marked `@concurrent` (SE-0461), so a
/// command run from `main` stays on the main thread instead of hopping to the thread pool.
let callerIsolated: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

/// The release link of the installed executables, tuned for start-up, which is most of a short
/// call. Link-time settings of the executables only, so `swift build -c release` builds every
/// module once and `make install` installs what it built:
/// - the Swift standard library and Foundation linked in (`-static-stdlib`), with the
///   Foundation parts that SwiftPM's `--static-swift-stdlib` would name at compile time, so
///   the binary needs no Swift toolchain to run;
/// - libstdc++ linked in too: `scripts/link/libstdc++.so` is a linker script that sends the
///   runtime's `-lstdc++` to the static archive (loading and relocating the shared library
///   was about a millisecond of every run);
/// - lld with packed relative relocations (RELR): a position-independent executable whose
///   start-up relocations are cheap;
/// - `--no-export-dynamic` undoes the `-export-dynamic` that the static standard library
///   brings: exporting every Swift symbol made the dynamic symbol table 31,000 entries long,
///   which the loader and the runtime's own `dladdr` walk at every start.
/// - `--icf=all` folds functions whose code is identical, as Apple's linker does for every
///   Swift program by default (its deduplication), and `-O2` merges string tails: 0.44 MB
///   less of moya-cli to map and fault in (bench/RESULTS.md, "Installed size").
///
/// A build with Swift's static Linux SDK links everything statically already; it sets
/// `MOYA_CLI_STATIC_SDK=1` (see .github/workflows/release.yml) to leave these out.
let tunedRelease: [LinkerSetting] =
    Context.environment["MOYA_CLI_STATIC_SDK"] != nil
    ? []
    : [
        .unsafeFlags(
            [
                "-static-stdlib", "-lswiftSynchronization", "-l_FoundationICU", "-lCoreFoundation",
                "-l_FoundationCShims", "-l_FoundationCollections",
                "-L\(Context.packageDirectory)/scripts/link",
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                "-Xlinker", "--icf=all", "-Xlinker", "-O2",
            ],
            .when(platforms: [.linux], configuration: .release))
    ]

let package = Package(
    name: "moya-cli",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "moya-cli", targets: ["moya-cli"]),
        .executable(name: "moya-cli-tools", targets: ["moya-cli-tools"]),
        .library(name: "MoyaCore", targets: ["MoyaCore"]),
        .library(name: "MoyaHTTP", targets: ["MoyaHTTP"]),
        .library(name: "MoyaSpec", targets: ["MoyaSpec", "MoyaCompiler"]),
        .library(name: "Moya", targets: ["Moya"]),
        .library(name: "MoyaRuntime", targets: ["MoyaRuntime"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // `import openapi`. Without its ExternalLoading trait, which only loading documents
        // from other files needs, it builds without Swift Concurrency's overhead.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
    ],
    targets: [
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // JSON values, their parsing and serialisation, and percent-encoding: no transport.
        .target(name: "MoyaJSON"),
        // The HTTP vocabulary: methods, headers, requests and responses, encodings, plugins,
        // what is secret and how it is masked, the values a transfer is set with, and writing a
        // file whole. No transport: the spec model, import and `generate swift` stand on it.
        .target(name: "MoyaHTTP", dependencies: ["MoyaJSON"]),
        // The transport: `Session`, an async send on AsyncHTTPClient and SwiftNIO, cancelled by
        // cancelling its task, failing with typed errors.
        .target(
            name: "MoyaTransport",
            dependencies: [
                "MoyaHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // WebSocket frames and the upgrade, for `ws:` and `wss:` targets.
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // Already in the graph through AsyncHTTPClient; named to classify its errors.
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]
        ),
        // Moya's programming model for Swift on Linux: `MoyaProvider` (endpoint and request
        // closures, stubs, plugins, callbacks) as an adapter over the transport, with the
        // vocabulary and the transport re-exported.
        .target(name: "MoyaCore", dependencies: ["MoyaJSON", "MoyaHTTP", "MoyaTransport"]),
        // The one regex service: ECMA-262 patterns as a Pike VM, or backtracking under a step
        // budget. No dependencies.
        .target(name: "MoyaRegex"),
        // RFC 9535 JSON paths and RFC 9485 I-Regexp patterns: checks' and captures' query
        // language.
        .target(name: "MoyaJSONPath", dependencies: ["MoyaJSON", "MoyaRegex"]),
        // JSON Schema: draft 2020-12, draft 7, draft 4 and OpenAPI 3.0's dialect.
        .target(name: "MoyaSchema", dependencies: ["MoyaJSON", "MoyaRegex"]),
        // YAML: the loader (nodes with 1-based marks), the layout `--record` edits text in
        // place by, plain scalars, YAML text out, and `TerminalText`. The only user of libyaml.
        .target(name: "MoyaYAML", dependencies: ["CLibYAML", "MoyaJSON"]),
        // Streams of events: SSE by the WHATWG rules, NDJSON and JSON text sequences, read as they
        // arrive and ended at their bounds. No transport: the reader is a `ResponseStream`.
        .target(name: "MoyaStreams", dependencies: ["MoyaJSON", "MoyaHTTP"]),
        .target(
            name: "MoyaSpec",
            dependencies: ["MoyaYAML", "MoyaHTTP", "MoyaJSONPath", "MoyaSchema", "MoyaRegex", "MoyaStreams"]),
        // The spec compiler: YAML text to the spec model, every problem at its place; the spec
        // library, the user's secrets file and the trust list.
        .target(
            name: "MoyaCompiler",
            dependencies: [
                "MoyaSpec", "MoyaYAML", "MoyaHTTP", "MoyaJSONPath", "MoyaSchema", "MoyaRegex", "MoyaStreams",
            ]),
        // Arazzo 1.0 and 1.1 documents: the model, runtime expressions, conditions, source
        // descriptions, and validation against the specification's schema.
        .target(
            name: "MoyaArazzo",
            dependencies: [
                "MoyaSpec", "MoyaCompiler", "MoyaHTTP", "MoyaJSONPath", "MoyaRegex", "MoyaSchema", "MoyaYAML",
            ]),
        // The binding stage: a target's params, environment and sample bound into the request
        // it sends and the printable form of it (`ServiceSpec.resolve`, `SpecTarget`).
        .target(name: "MoyaBinding", dependencies: ["MoyaSpec", "MoyaHTTP", "MoyaStreams"]),
        // What the two executables share: every exit status, the one table from a failure's
        // kind to its status, and the failures only a command makes. No transport.
        .target(name: "MoyaCommandSupport", dependencies: ["MoyaSpec"]),
        // Coverage: what a run exercised of its services' targets, statuses, params, enum
        // values and request body branches, counted from exchanges, and its JSON.
        .target(name: "MoyaCoverage", dependencies: ["MoyaJSON", "MoyaSpec", "MoyaSchema"]),
        // `generate swift`: a spec's service as a Moya `TargetType` enum, its schemas as models.
        .target(name: "MoyaGenerate", dependencies: ["MoyaHTTP", "MoyaSpec", "MoyaSchema"]),
        // Sending spec targets: the one policy for time limits, retries, redirects and stubs.
        .target(
            name: "MoyaRuntime",
            dependencies: [
                "MoyaJSON", "MoyaYAML", "MoyaHTTP", "MoyaTransport", "MoyaSpec", "MoyaBinding", "MoyaJSONPath",
                "MoyaRegex", "MoyaCoverage", "MoyaStreams",
            ],
            swiftSettings: callerIsolated),
        // The one HTTP/1.1 server of `serve` and `mcp --http`, in Hummingbird's Core + TLS
        // shape on SwiftNIO, already in the graph through AsyncHTTPClient: bootstrap, TLS,
        // connection cap, body limits, timeouts and graceful stop, asking an `HTTPResponder`;
        // WebSockets on NIO's upgrader.
        .target(
            name: "MoyaServer",
            dependencies: [
                "MoyaHTTP", "MoyaSpec",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
        // `serve`: the mock router (a pure function from a request to an answer) and its
        // responder for the server core.
        .target(
            name: "MoyaServe",
            dependencies: [
                "MoyaJSON", "MoyaHTTP", "MoyaSpec", "MoyaBinding", "MoyaJSONPath", "MoyaSchema", "MoyaServer",
                "MoyaStreams",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        // OpenAPI documents to specs and back, on OpenAPIKit's model.
        .target(
            name: "MoyaOpenAPI",
            dependencies: [
                "MoyaHTTP", "MoyaSpec", "MoyaArazzo", "MoyaJSONPath", "MoyaSchema", "MoyaRegex", "MoyaStreams",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
            ]),
        // MCP itself, with no tools: JSON-RPC on MoyaJSON, the handshake's revisions and
        // 2026-07-28's envelope, stdio framing, Streamable HTTP on MoyaServer with its sessions,
        // and the resource server's checks of OAuth bearer tokens. An `MCPHandler` answers.
        .target(
            name: "MoyaMCPProtocol",
            dependencies: [
                "MoyaHTTP", "MoyaTransport", "MoyaSpec", "MoyaServer",
                .product(name: "NIOCore", package: "swift-nio"),
                // TLS, and its BoringSSL (`CNIOBoringSSL`), which checks bearer tokens'
                // signatures: no second copy of BoringSSL to build (swift-crypto's).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: callerIsolated),
        // `moya-cli mcp`'s tools: a spec's targets and flows as MCP tools, sent through
        // MoyaRuntime, answering the protocol as its `MCPHandler`.
        .target(
            name: "MoyaMCP",
            dependencies: [
                "MoyaMCPProtocol", "MoyaHTTP", "MoyaSpec", "MoyaBinding", "MoyaRuntime", "MoyaJSONPath", "MoyaSchema",
            ],
            swiftSettings: callerIsolated),
        // Moya 15's API over MoyaCore, for code written for Moya. Swift 5 mode, as Moya is:
        // its closures and classes predate `Sendable`.
        .target(name: "Moya", dependencies: ["MoyaCore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "MoyaCLI",
            dependencies: [
                "MoyaHTTP",
                "MoyaStreams",
                "MoyaTransport",
                "MoyaSpec",
                "MoyaCompiler",
                "MoyaBinding",
                "MoyaArazzo",
                "MoyaJSONPath",
                "MoyaSchema",
                "MoyaGenerate",
                "MoyaRuntime",
                "MoyaServe",
                "MoyaMCP",
                "MoyaMCPProtocol",
                "MoyaCoverage",
                "MoyaCommandSupport",
                "MoyaServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: callerIsolated
        ),
        .executableTarget(
            name: "moya-cli", dependencies: ["MoyaCLI"], swiftSettings: callerIsolated, linkerSettings: tunedRelease),
        // What moya-cli-tools runs, as a library the tests call in-process (`OpenAPITool.run`).
        .target(
            name: "MoyaTools",
            dependencies: ["MoyaSpec", "MoyaCompiler", "MoyaArazzo", "MoyaOpenAPI", "MoyaHTTP", "MoyaCommandSupport"]),
        // `import openapi` and `export openapi`, which moya-cli hands over to, so that OpenAPIKit
        // and the full Foundation it needs do not slow every other command's start.
        // With ICU's data left out (CNoICUData): 34 MB it never reads.
        .executableTarget(
            name: "moya-cli-tools", dependencies: ["MoyaTools", "CNoICUData"],
            swiftSettings: callerIsolated, linkerSettings: tunedRelease),
        .target(name: "CNoICUData"),
        .executableTarget(
            name: "spec-bench", dependencies: ["MoyaSpec", "MoyaCompiler", "CLibYAML"], path: "bench/Sources/spec-bench"
        ),
        .executableTarget(name: "bench-server", dependencies: ["TestSupport"], path: "bench/Sources/bench-server"),
        // MoyaSchema validating instances in a loop, for bench/schema.sh.
        .executableTarget(
            name: "schema-bench", dependencies: ["MoyaSchema", "MoyaCore"], path: "bench/Sources/schema-bench"),
        // A stubbed tool call beside the same exchange, in one process, for bench/mcp.sh.
        .executableTarget(
            name: "mcp-bench",
            dependencies: [
                "MoyaMCP", "MoyaMCPProtocol", "MoyaRuntime", "MoyaSpec", "MoyaCompiler", "MoyaBinding", "MoyaCore",
            ],
            path: "bench/Sources/mcp-bench", swiftSettings: callerIsolated),
        // MoyaRegex on pathological patterns, beside PCRE2 in bench/regex.sh.
        .executableTarget(name: "regex-bench", dependencies: ["MoyaRegex"], path: "bench/Sources/regex-bench"),
        .executableTarget(
            name: "moya-bench", dependencies: ["Moya", "MoyaCore"], path: "bench/Sources/moya-bench",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // libFuzzer targets, built by `make fuzz` with -sanitize=fuzzer; otherwise a replayer.
        .executableTarget(
            name: "moya-fuzz",
            dependencies: [
                "MoyaCLI", "MoyaSpec", "MoyaCompiler", "MoyaCore", "MoyaJSONPath", "MoyaGenerate", "MoyaOpenAPI",
                "MoyaServe",
                "MoyaRuntime", "MoyaRegex", "MoyaMCP", "MoyaMCPProtocol", "MoyaArazzo",
                "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "fuzz"),
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/TestSupport"
        ),
        // Moya's Basic Usage `MyService`, as a Moya user writes it: Swift 5 mode, a bundled sample.
        .target(
            name: "MyService", dependencies: ["Moya"], path: "Examples/MyService", resources: [.copy("accounts.json")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // MoyaRuntime from Swift: the bundled myservice spec sent as `moya-cli call` sends it.
        .executableTarget(
            name: "spec-client-example",
            dependencies: ["MoyaRuntime", "MoyaSpec", "MoyaCompiler", "MoyaHTTP", "MoyaSchema"],
            path: "Examples/SpecClient", swiftSettings: callerIsolated),
        // What `moya-cli generate swift` writes for the bundled specs, compiled against Moya;
        // a test keeps the files the same as the command's output.
        .target(name: "GeneratedServices", dependencies: ["Moya"], path: "Tests/Fixtures/generated"),
        .testTarget(name: "MoyaCoreTests", dependencies: ["MoyaCore", "MoyaHTTP", "MoyaTransport", "TestSupport"]),
        .testTarget(name: "MoyaRegexTests", dependencies: ["MoyaRegex"]),
        .testTarget(name: "MoyaJSONTests", dependencies: ["MoyaJSON"]),
        .testTarget(name: "MoyaStreamsTests", dependencies: ["MoyaStreams", "MoyaHTTP", "MoyaJSON", "TestSupport"]),
        .testTarget(
            name: "MoyaGenerateTests",
            dependencies: [
                "MoyaGenerate", "MoyaSpec", "MoyaCompiler", "MoyaBinding", "MoyaCore", "MoyaOpenAPI", "TestSupport",
            ]),
        .testTarget(
            name: "MoyaOpenAPITests",
            dependencies: ["MoyaOpenAPI", "MoyaTools", "MoyaSpec", "MoyaCompiler", "MoyaCore", "TestSupport"]),
        // Swift 6 mode: Moya code compiles in either.
        .testTarget(name: "MoyaTests", dependencies: ["Moya", "MyService", "TestSupport"]),
        .testTarget(name: "MoyaSchemaTests", dependencies: ["MoyaSchema", "MoyaCore", "TestSupport"]),
        .testTarget(
            name: "MoyaSpecTests",
            dependencies: [
                "MoyaSpec", "MoyaCompiler", "MoyaCore", "MoyaHTTP", "MoyaJSONPath", "MoyaSchema", "TestSupport",
            ]),
        .testTarget(
            name: "MoyaCoverageTests",
            dependencies: ["MoyaCoverage", "MoyaCompiler", "MoyaSpec", "MoyaCore", "TestSupport"]),
        .testTarget(
            name: "MoyaBindingTests",
            dependencies: ["MoyaBinding", "MoyaSpec", "MoyaCompiler", "MoyaCore", "TestSupport"]),
        .testTarget(
            name: "MoyaRuntimeTests",
            dependencies: [
                "MoyaRuntime", "MoyaSpec", "MoyaCompiler", "MoyaBinding", "MoyaCore", "MoyaJSONPath",
                "MoyaCommandSupport", "MoyaHTTP",
                "TestSupport",
            ]),
        .testTarget(
            name: "MoyaMCPTests",
            dependencies: [
                "MoyaMCP", "MoyaMCPProtocol", "MoyaSpec", "MoyaCompiler", "MoyaCore", "MoyaRuntime", "MoyaOpenAPI",
                "MoyaSchema", "TestSupport",
                // Driven over stdio as an MCP client drives it.
                "moya-cli", "moya-cli-tools",
            ]),
        .testTarget(name: "MoyaServerTests", dependencies: ["MoyaServer", "TestSupport"]),
        .testTarget(
            name: "MoyaServeTests", dependencies: ["MoyaServe", "MoyaSpec", "MoyaCompiler", "MoyaCore", "TestSupport"]),
        .testTarget(
            name: "MoyaCLITests",
            dependencies: [
                "MoyaCLI", "MoyaSpec", "MoyaCompiler", "MoyaBinding", "MoyaCore", "MoyaJSONPath", "TestSupport", "Moya",
                "GeneratedServices",
                // Built so that the interrupt test can run the real executable, and the
                // OpenAPI tests the program it hands over to.
                "moya-cli", "moya-cli-tools", "spec-client-example", "MoyaRuntime", "MoyaCoverage",
                "MoyaCommandSupport", "MoyaJSON", "MoyaServe", "MoyaTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)
