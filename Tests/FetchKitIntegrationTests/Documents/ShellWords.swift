/// Splits a command line into words as a POSIX shell does, for the forms the documents use: single and
/// double quotes, backslash escapes, `$NAME` variables. A comment (`#` starting a word), a redirection
/// or a pipe (`>`, `<`, `|`, `&`, `;`) ends the command: what follows is not its arguments.
enum ShellWords {
    /// A variable the line uses that `variables` does not define.
    struct UndefinedVariable: Error, CustomStringConvertible {
        let name: String
        var description: String { "the command line uses $\(name), which the test does not define" }
    }

    static func split(_ line: String, variables: [String: String]) throws -> [String] {
        var words: [String] = []
        var word: String?
        var characters = Array(line)[...]

        func expandVariable() throws -> String {
            let name = characters.prefix { $0 == "_" || $0.isLetter || $0.isNumber }
            characters = characters.dropFirst(name.count)
            guard let value = variables[String(name)] else { throw UndefinedVariable(name: String(name)) }
            return value
        }

        scanning: while let character = characters.popFirst() {
            switch character {
            case " ", "\t":
                if let finished = word { words.append(finished) }
                word = nil
            case "#" where word == nil, ">", "<", "|", "&", ";":
                break scanning
            case "'":
                word = (word ?? "") + String(characters.prefix { $0 != "'" })
                characters = characters.drop { $0 != "'" }.dropFirst()
            case "\"":
                var quoted = ""
                while let inner = characters.popFirst(), inner != "\"" {
                    if inner == "\\", let next = characters.first, "$\"\\`".contains(next) {
                        quoted.append(characters.removeFirst())
                    } else if inner == "$" {
                        quoted += try expandVariable()
                    } else {
                        quoted.append(inner)
                    }
                }
                word = (word ?? "") + quoted
            case "\\":
                word = (word ?? "") + (characters.popFirst().map { String($0) } ?? "")
            case "$":
                word = (word ?? "") + (try expandVariable())
            default:
                word = (word ?? "") + String(character)
            }
        }
        if let finished = word { words.append(finished) }
        return words
    }
}
