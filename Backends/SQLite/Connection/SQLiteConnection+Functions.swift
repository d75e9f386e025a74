import CSQLite
import FetchKitBackendKit
import Foundation

extension SQLiteConnection {
    /// Registers the SQL functions the SQLite dialect compiles `[c]` and `[d]` comparisons to:
    /// `fk_casefold(x)` (lowercased text) and `fk_unaccent(x)` (text without diacritics).
    /// Other value types pass through unchanged.
    func registerFunctions() throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        var rc = sqlite3_create_function_v2(
            handle, "fk_casefold", 1, flags, nil,
            { context, count, arguments in
                SQLiteTextFunction.apply(context, count, arguments) { $0.fetchKitCaseFolded }
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql: nil) }
        rc = sqlite3_create_function_v2(
            handle, "fk_unaccent", 1, flags, nil,
            { context, count, arguments in
                SQLiteTextFunction.apply(context, count, arguments) {
                    $0.folding(options: .diacriticInsensitive, locale: nil)
                }
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql: nil) }
    }
}

/// The body shared by one-argument text functions: transform text, pass anything else through.
enum SQLiteTextFunction {
    static func apply(
        _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?,
        _ transform: (String) -> String
    ) {
        guard count == 1, let argument = arguments?[0] else {
            sqlite3_result_null(context)
            return
        }
        guard sqlite3_value_type(argument) == SQLITE_TEXT else {
            sqlite3_result_value(context, argument)
            return
        }
        let bytes = sqlite3_value_text(argument)
        let length = Int(sqlite3_value_bytes(argument))
        let text = String(decoding: UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : length), as: UTF8.self)
        var result = transform(text)
        guard !result.isEmpty else {
            sqlite3_result_text(context, "", 0, sqliteTransient)
            return
        }
        result.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_result_text64(
                    context, chars.baseAddress, UInt64(chars.count), sqliteTransient, UInt8(SQLITE_UTF8))
            }
        }
    }
}
