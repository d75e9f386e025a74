import CSQLite
import FetchKit
import Foundation

/// `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteStatement {
    /// Binds `values` to the parameters `?1…?n`; the count must match the statement's.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for NaN, text containing NUL, or a date out of range;
    ///   ``FetchKitError/Code/database`` when the count differs.
    func bind(_ values: [Value]) throws {
        guard values.count == Int(parameterCount) else {
            throw FetchKitError.database(
                code: SQLITE_RANGE, message: "the statement takes \(parameterCount) values, got \(values.count)",
                sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to parameter `index` (1-based).
    ///
    /// Integers bind as int64, doubles as double, booleans as 0/1, dates as int64 microseconds
    /// since 1970, text as UTF-8, data as a blob (an empty one too, never `NULL`).
    func bind(_ value: Value, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            rc = sqlite3_bind_int64(handle, index, integer)
        case .double(let double):
            guard !double.isNaN else {
                throw FetchKitError.invalidValue("NaN cannot be stored (parameter \(index) of: \(sql))")
            }
            rc = sqlite3_bind_double(handle, index, double)
        case .text(let text):
            rc = try bindText(text, at: index)
        case .bool(let bool):
            rc = sqlite3_bind_int64(handle, index, bool ? 1 : 0)
        case .date(let date):
            let seconds = date.timeIntervalSince1970
            guard seconds.isFinite, abs(seconds) < 9_000_000_000_000 else {
                throw FetchKitError.invalidValue("date \(seconds) s from 1970 is out of range (parameter \(index))")
            }
            rc = sqlite3_bind_int64(handle, index, date.microsecondsSince1970)
        case .blob(let data):
            rc = bindBlob(data, at: index)
        }
        guard rc == SQLITE_OK else { throw error(rc) }
    }

    private func bindText(_ text: String, at index: Int32) throws -> Int32 {
        guard !text.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
        var text = text
        return try text.withUTF8 { buffer in
            guard !buffer.contains(0) else {
                throw FetchKitError.invalidValue("text containing NUL cannot be stored (parameter \(index))")
            }
            return buffer.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text64(
                    handle, index, chars.baseAddress, UInt64(chars.count), sqliteTransient, UInt8(SQLITE_UTF8))
            }
        }
    }

    private func bindBlob(_ data: Data, at index: Int32) -> Int32 {
        guard !data.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
        return data.withUnsafeBytes { bytes in
            sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), sqliteTransient)
        }
    }
}
