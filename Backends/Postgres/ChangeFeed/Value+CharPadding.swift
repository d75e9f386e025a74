import FetchKit

extension Value {
    /// The value as a fetch reads a `char(n)` key: text without its trailing blanks (casting `char(n)` to text
    /// drops them), any other value as it is. The feeds receive such keys as stored, padded.
    var withoutCharPadding: Value {
        guard case .text(let text) = self, text.unicodeScalars.last == " " else { return self }
        var scalars = text.unicodeScalars[...]
        while scalars.last == " " { scalars = scalars.dropLast() }
        return .text(String(scalars))
    }
}
