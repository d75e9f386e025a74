#if Configuration
    import Configuration
    import Foundation
    import Logging

    // Reading a configuration with swift-configuration (the Configuration package trait, on by default).
    extension StoreConfiguration {
        /// Reads the core's keys (see the table above) from `reader`, and keeps it for the backend's.
        ///
        /// - Throws: ``FetchKitError/Code/invalidValue`` naming the key when the URL is missing or a value is out
        ///   of range (a value of the wrong type is reported by swift-configuration).
        public init(reader: ConfigReader) throws {
            guard let url = reader.string(forKey: "fetchkit.store.url", isSecret: true), !url.isEmpty else {
                throw FetchKitError.invalidValue(
                    "no store URL: set fetchkit.store.url (environment FETCHKIT_STORE_URL)")
            }
            var logger = Logger.current
            if let level = reader.string(forKey: "fetchkit.log.level") {
                guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                    throw FetchKitError.invalidValue(
                        "fetchkit.log.level '\(level)' is not one of trace, debug, info, notice, warning, error, "
                            + "critical")
                }
                logger.logLevel = parsed
            }
            self.init(url: url, logger: logger)
            self.reader = reader
            readerCount = try positiveInteger("fetchkit.store.readers")
        }

        /// A reader over environment variables (a key's components upper-cased, camel case split and joined by
        /// `_`: `FETCHKIT_STORE_URL`, `FETCHKIT_POSTGRES_KEEPALIVE_COUNT`, …) and, under them, the JSON file at
        /// `jsonFile` when given (`{"fetchkit": {"store": {"url": "…"}}}`); variables ending in `_URL` or `PASSWORD`
        /// are treated as secrets.
        ///
        /// - Throws: when the JSON file cannot be read or parsed.
        public static func reader(
            environment: [String: String] = ProcessInfo.processInfo.environment, jsonFile: String? = nil
        ) async throws -> ConfigReader {
            let variables = EnvironmentVariablesProvider(
                environmentVariables: environment,
                secretsSpecifier: .dynamic { name, _ in name.hasSuffix("_URL") || name.hasSuffix("PASSWORD") })
            guard let jsonFile else { return ConfigReader(provider: variables) }
            // `FilePath` (swift-system) comes with swift-configuration, through its parameter.
            let file = try await FileProvider<JSONSnapshot>(filePath: .init(jsonFile))
            return ConfigReader(providers: [variables, file])
        }
    }
#endif
