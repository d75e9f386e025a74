/// `%XX` escapes, as URLs write bytes: one reading of them for every part of FetchKit that takes a URL apart.
package enum PercentEncoding {
    /// The value of the hexadecimal digit `byte` (`0`–`9`, `a`–`f`, `A`–`F`), `nil` for any other byte.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `text` with its `%XX` escapes decoded; an invalid escape is kept as written and invalid UTF-8 is
    /// repaired (for showing or matching text, never for handing it on).
    package static func decodedLeniently(_ text: some StringProtocol) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
