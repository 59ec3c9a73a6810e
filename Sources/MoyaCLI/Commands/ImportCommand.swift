import ArgumentParser
import MoyaArazzo
import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli import`: specs from other descriptions of an API.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        _superCommandName: MoyaCommand.name,
        abstract: "Write a spec from another description of an API.",
        subcommands: [
            ImportOpenAPICommand.self, ImportArazzoCommand.self, ImportCurlCommand.self, ImportPostmanCommand.self,
            ImportHARCommand.self, ImportInsomniaCommand.self,
            ImportHTTPCommand.self, ImportBrunoCommand.self,
        ]
    )
}

/// `moya-cli import openapi FILE`: an OpenAPI document as a spec.
struct ImportOpenAPICommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write a spec from an OpenAPI 3.0, 3.1 or 3.2 or a Swagger 2.0 document, YAML or JSON.",
        discussion: """
            The first server is the base URL and the others environments; each operation is a \
            target named by its operationId, with its path, query, header and cookie params typed as \
            declared, its request body as a JSON, form or multipart task, and its responses' \
            examples as samples (made up from the schema where there is none). Security \
            schemes become auth: or headers read from ${VAR}. $refs are resolved, in the file \
            and in files beside it. A Swagger 2.0 document is read as the OpenAPI 3.0 one it \
            describes. One spot that cannot be carried is repaired or left out, never the \
            whole document, and an import that leaves out operations says how many on its last \
            line. What has no place in a spec (callbacks, links, OAuth flows) is named \
            in one warning line each, with its JSON pointer; a warning many places share is \
            printed once, at the first, with how many more (--verbose lists each). The same \
            document always gives the same spec. Exits 0, 64 for a usage error, 65 for a document that cannot be \
            read as an API description, 66 for a missing file.

            Examples:
              moya-cli import openapi petstore.yaml -o specs/
              moya-cli import openapi api.json --service shop -o specs/shop.yaml
            """
    )

    @Argument(help: ArgumentHelp("The OpenAPI or Swagger document.", valueName: "file"), completion: .file())
    var file: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the spec here instead of to stdout; into a folder (DIR/, or one that is there) as SERVICE.yaml.",
            valueName: "path"))
    var output: String?

    @Option(help: ArgumentHelp("The service's name. Defaults to the document's title.", valueName: "name"))
    var service: String?

    @Flag(name: .shortAndLong, help: "List every warning, not each kind once with a count.")
    var verbose = false

    func execute() async throws {
        try HelperProgram.openAPI.run(
            ["import", file, output ?? "-", service ?? "-"] + (verbose ? ["verbose"] : []), for: "import openapi")
    }
}

/// `moya-cli import arazzo FILE`: an Arazzo document's workflows as flows.
struct ImportArazzoCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "arazzo",
        abstract: "Write specs with flows from an Arazzo 1.0 or 1.1 workflow document.",
        discussion: """
            The document is validated first, as moya-cli validate does. Each OpenAPI source \
            description is imported as import openapi imports it, to DIR/SERVICE.yaml, and each \
            workflow becomes a flow of the spec of its first step's source: its inputs are the \
            flow's vars, each step calls the target of its operationId or operationPath, its \
            parameters and request body set the target's params, runtime expressions ($inputs, \
            $steps.ID.outputs.NAME) become {variables}, successCriteria become expect, outputs \
            become captures, and a retry failure action becomes until and retry. A step that runs \
            another workflow runs that workflow's steps in its place. What a flow cannot hold \
            (goto, an XPath criterion, a condition on variables alone) is a warning with its \
            file:line:col, never left out silently. Without -o, a document with one OpenAPI \
            source prints its spec. Exits 0, 64 for a usage error, 65 for an invalid document, \
            66 for a source description that cannot be read.

            Examples:
              moya-cli import arazzo pets.arazzo.yaml -o specs/
              moya-cli import arazzo bnpl.arazzo.yaml --source BnplApi=bnpl-openapi.yaml -o specs/
            """
    )

    @Argument(help: ArgumentHelp("The Arazzo document.", valueName: "file"), completion: .file())
    var file: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the specs into this folder instead of the spec to stdout.", valueName: "dir"))
    var output: String?

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp(
            "The file to read the source description NAME from, instead of its url.", valueName: "name=file"))
    var sources: [String] = []

    @Option(
        name: .customLong("file-root"),
        help: ArgumentHelp(
            "The folder the document's relative source descriptions must be in, instead of its own.",
            valueName: "dir"),
        completion: .directory)
    var fileRoot: String?

    func execute() async throws {
        _ = try ArazzoFile.sourceFiles(sources)
        try HelperProgram.openAPI.run(
            ["import-arazzo", file, output ?? "-"] + (fileRoot.map { [ArazzoSource.fileRootArgument + $0] } ?? [])
                + sources, for: "import arazzo")
    }
}

/// `moya-cli import curl FILE` or `moya-cli import curl -- ARGS…`: curl command lines as a spec.
struct ImportCurlCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Write a spec from curl command lines, one target per command.",
        discussion: """
            FILE holds curl commands as a shell reads them (quotes, $'…', line continuations, \
            several commands); - reads them from stdin. After --, the words are one command's \
            arguments, as your shell split them. Each command becomes a target that sends what \
            curl sends: the method, the path and query, the headers (with curl's Accept: */* and \
            the content type its data options imply), the body (-d, --data-raw, --data-binary, \
            --data-urlencode, --json, -F) and basic (-u) or bearer credentials. A password, a \
            token, a cookie and a header named like a key or a token are never written: the spec \
            reads them from ${SERVICE_NAME} variables, which the summary lists. A $VAR becomes \
            ${VAR} in a header or a body and a param in the path or query. Nothing is run and no \
            file the commands name is read. Every option that is not carried is listed with its \
            line; --report writes the same as JSON. Exits 0, 64 for a usage error, 65 when no \
            request could be imported, 66 for a missing file.

            Examples:
              moya-cli import curl requests.sh -o specs/
              moya-cli import curl --service shop -o specs/ -- -X POST https://shop.example/orders --json '{"id":1}'
            """
    )

    @Argument(
        help: ArgumentHelp("A file of curl commands, or - for stdin.", valueName: "file"), completion: .file())
    var file: String?

    @Argument(
        parsing: .postTerminator, help: ArgumentHelp("One curl command's arguments, after --.", valueName: "curl-args"))
    var arguments: [String] = []

    @OptionGroup var options: ImportOptions

    func execute() async throws {
        if file != nil, !arguments.isEmpty {
            throw UsageError("give a file of curl commands or one command after --, not both")
        }
        if file == nil, arguments.isEmpty {
            throw UsageError("give a file of curl commands, - for stdin, or one command after --")
        }
        var words = arguments
        if words.first == "curl" { words.removeFirst() }
        let source = file.map { ["file", $0] } ?? (["args"] + words)
        try HelperProgram.openAPI.run(
            ["import-curl"] + options.helperArguments + source, for: "import curl")
    }
}

/// `moya-cli import postman COLLECTION.json`: a Postman collection as a spec.
struct ImportPostmanCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "postman",
        abstract: "Write a spec from a Postman collection, v2.0 or v2.1.",
        discussion: """
            Each request becomes a target named by its folders and its name; folders are name \
            prefixes, since a collection is one API. The base URL is the one most requests use. \
            {{var}} becomes ${VAR} in the base URL, headers, bodies and auth, with the \
            collection's value as the default, and a param in the path or query. Bodies of \
            every mode (raw, urlencoded, form-data with files, binary, GraphQL as JSON), bearer, \
            basic and API-key auth (noauth and inherited too) and saved examples (as named \
            samples) are carried. A secret variable, an auth value and a credential-named \
            header are never written: the spec reads them from variables the summary lists. \
            Each --environment becomes an environment of the spec when the base URL reads its \
            variables. Scripts are never run. Everything not carried is listed with its item \
            path; --report writes the same as JSON. Exits 0, 64 for a usage error, 65 for a \
            file that is not a v2.0 or v2.1 collection or has no request to import, 66 for a \
            missing file.

            Examples:
              moya-cli import postman shop.postman_collection.json -o specs/
              moya-cli import postman api.json --environment staging.postman_environment.json -o specs/
            """
    )

    @Argument(
        help: ArgumentHelp("The collection, as Postman exports it.", valueName: "collection"), completion: .file())
    var collection: String

    @Option(
        name: .customLong("environment"),
        help: ArgumentHelp("A Postman environment to carry as an environment; repeatable.", valueName: "file"),
        completion: .file())
    var environments: [String] = []

    @OptionGroup var options: ImportOptions

    func execute() async throws {
        try HelperProgram.openAPI.run(
            ["import-postman"] + options.helperArguments + [collection] + environments,
            for: "import postman")
    }
}

/// `moya-cli import har FILE.har`: an HTTP Archive's requests as a spec.
struct ImportHARCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Write a spec from an HTTP Archive (HAR), one target per method and path.",
        discussion: """
            Entries with the same method, origin and path are one target; a path segment that \
            is a number, a UUID or a long hex string becomes a param, its default the first \
            value seen. Each target sends what its first entry recorded: the query, the \
            headers (but Host, Content-Length and the others the transport writes) and the \
            body. The responses become samples: the first as the sample, one of each other \
            status as a named sample; a body over 64 KiB or in base64 is left out. Cookie, \
            Authorization and credential-named headers and query keys are read from \
            ${SERVICE_NAME} variables the summary lists, never written. Everything not carried \
            is listed with its entry; --report writes the same as JSON. Exits 0, 64 for a \
            usage error, 65 for a file that is not a HAR or has no request to import, 66 for \
            a missing file.

            Examples:
              moya-cli import har session.har -o specs/
              moya-cli import har shop.har --service shop -o specs/
            """
    )

    @Argument(help: ArgumentHelp("The HTTP Archive, as a browser saves it.", valueName: "file"), completion: .file())
    var file: String

    @OptionGroup var options: ImportOptions

    func execute() async throws {
        try HelperProgram.openAPI.run(
            ["import-har"] + options.helperArguments + [file], for: "import har")
    }
}

/// `moya-cli import insomnia EXPORT`: an Insomnia export's workspaces as specs.
struct ImportInsomniaCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "insomnia",
        abstract: "Write specs from an Insomnia export: v4 JSON or YAML, or v5 YAML.",
        discussion: """
            Each workspace becomes a spec (several need -o DIR/), each request a target named \
            by its request groups and its name. Insomnia's model is Postman's, and the mapping \
            is import postman's: {{ _.var }} becomes ${VAR} with the base environment's value \
            as the default, or a param in a path or query; each sub-environment becomes an \
            environment of the base URL; bodies, basic, bearer and API-key auth are carried; \
            credentials are never written. A GET's body is sent, as Insomnia sends it. Template \
            tags ({% … %}) and scripts are never run, and are reported. Everything not carried \
            is listed with its request's path; --report writes the same as JSON. Exits 0, 64 \
            for a usage error, 65 for a file that is not an Insomnia export of format 2 to 5 \
            or has no request to import, 66 for a missing file.

            Examples:
              moya-cli import insomnia Insomnia_2026-12-07.yaml -o specs/
              moya-cli import insomnia export.json --service shop -o specs/
            """
    )

    @Argument(help: ArgumentHelp("The export, as Insomnia writes it.", valueName: "file"), completion: .file())
    var file: String

    @OptionGroup var options: ImportOptions

    func execute() async throws {
        try HelperProgram.openAPI.run(
            ["import-insomnia"] + options.helperArguments + [file], for: "import insomnia")
    }
}

/// `moya-cli import http FILE.http...`: `.http` files as specs.
struct ImportHTTPCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Write specs from .http and .rest files (JetBrains, REST Client, httpyac), one per file.",
        discussion: """
            Requests are read by the JetBrains HTTP Client's rules: ### separates them, a request \
            line (METHOD URL HTTP/1.1, the URL continued on indented lines) starts one, headers \
            follow, and the body comes after a blank line; a request line after a blank line \
            starts another, as httpyac reads it. @name = value lines are variables, # @name \
            names a target, # @no-redirect turns redirects off. {{var}} maps as import \
            postman's does; the http-client.env.json beside a file gives environments, and of \
            http-client.private.env.json only the names are read, never the values. Bodies \
            from files (< path), scripts, response handlers, assertions and other protocols \
            (gRPC, WebSocket, MQTT, …) are reported with their line. Several files need -o \
            DIR/. Exits 0, 64 for a usage error, 65 when no request could be imported, 66 for \
            a missing file.

            Examples:
              moya-cli import http requests.http -o specs/
              moya-cli import http api/*.http --service shop -o specs/
            """
    )

    @Argument(help: ArgumentHelp("The .http or .rest files.", valueName: "file"), completion: .file())
    var files: [String]

    @OptionGroup var options: ImportOptions

    func execute() async throws {
        guard !files.isEmpty else { throw UsageError("give the .http files to import") }
        try HelperProgram.openAPI.run(["import-http"] + options.helperArguments + files, for: "import http")
    }
}

/// `moya-cli import bruno FOLDER`: a Bruno collection as a spec.
struct ImportBrunoCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "bruno",
        abstract:
            "Write a spec from a Bruno collection: a folder of .bru or OpenCollection YAML files, or one YAML file.",
        discussion: """
            The folder holds bruno.json and the collection's .bru files: each request file \
            becomes a target named by its folders and its meta name, in seq order; its method \
            block, params:query, params:path, headers, body:json/text/xml/form-urlencoded/ \
            multipart-form/graphql and auth:bearer/basic/apikey are carried as import postman \
            carries them; collection.bru's headers, auth and vars and folder.bru's auth apply \
            beneath them; environments/*.bru become environments, vars:secret never written. \
            Scripts and tests are never run; assert lines, request vars and what else has no \
            place are reported with their file and line. Links are not followed. A folder with \
            opencollection.yml is Bruno's YAML format (OpenCollection): a .yml file per request \
            (info, http, runtime.assertions, settings, examples), folder.yml, environments/*.yml \
            and config.environments, the same mapping; one YAML file is a bundled \
            OpenCollection document. Exits 0, 64 for a usage error, 65 when no request could be \
            imported, 66 for a missing folder.

            Examples:
              moya-cli import bruno ~/bruno/shop -o specs/
              moya-cli import bruno shop.opencollection.yml -o specs/
            """
    )

    @Argument(
        help: ArgumentHelp("The collection's folder, or a bundled OpenCollection file.", valueName: "folder|file"),
        completion: .file())
    var folder: String

    @OptionGroup var options: ImportOptions

    func execute() async throws {
        try HelperProgram.openAPI.run(["import-bruno"] + options.helperArguments + [folder], for: "import bruno")
    }
}

/// What every collection import takes: where the spec goes, the service's name, the report.
struct ImportOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the spec here instead of to stdout; into a folder (DIR/, or one that is there) as SERVICE.yaml.",
            valueName: "path"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "The service's name. Defaults to one from the source: its name, or its first URL's host.",
            valueName: "name"))
    var service: String?

    @Option(help: ArgumentHelp("Write what was imported and what was not as JSON here.", valueName: "file"))
    var report: String?

    /// `OUTPUT SERVICE REPORT`, `-` for each not given, as moya-cli-tools takes them.
    var helperArguments: [String] { [output ?? "-", service ?? "-", report ?? "-"] }
}
