#if Configuration
    import Configuration
#endif

// A backend's own keys, read from the configuration's reader; without the Configuration trait there is no
// reader, and every key reads as unset (each setting takes its default).
extension StoreConfiguration {
    /// The value of the integer key `key` in ``reader``, `nil` when it is not set (or there is no reader).
    ///
    /// ```swift
    /// options.pollInterval = try configuration.positiveInteger("fetchkit.mystore.pollMilliseconds")
    ///     .map { .milliseconds($0) }
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` naming the key when the value is zero or negative.
    public func positiveInteger(_ key: String) throws -> Int? {
        #if Configuration
            guard let value = reader?.int(forKey: ConfigKey(key)) else { return nil }
            guard value > 0 else { throw FetchKitError.invalidValue("\(key) must be positive (got \(value))") }
            return value
        #else
            return nil
        #endif
    }

    /// The non-empty text of the secret key `key` in ``reader`` (a password or a URL holding one: never
    /// logged), `nil` when it is not set.
    public func secret(_ key: String) -> String? {
        #if Configuration
            reader?.string(forKey: ConfigKey(key), isSecret: true).flatMap { $0.isEmpty ? nil : $0 }
        #else
            nil
        #endif
    }

    /// The text of the key `key` in ``reader``, `nil` when it is not set (or there is no reader).
    public func string(_ key: String) -> String? {
        #if Configuration
            reader?.string(forKey: ConfigKey(key))
        #else
            nil
        #endif
    }
}
