/// A section's name as its identity: compared byte for byte (UTF-8), as the database stores and orders the
/// section value — never by Swift's canonical equivalence, under which "é" precomposed and "e" followed by a
/// combining accent are equal although the database holds, orders and groups them as two values.
struct SectionName: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (a: SectionName, b: SectionName) -> Bool { a.text.isSameSection(as: b.text) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        for byte in text.utf8 { hasher.combine(byte) }
    }
}

extension String {
    /// `true` when both name the same section: their UTF-8 bytes are equal.
    func isSameSection(as other: String) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}

extension Array where Element == String {
    /// `true` when both list the same sections in the same order (names compared byte for byte).
    func isSameSections(as other: [String]) -> Bool {
        count == other.count && zip(self, other).allSatisfy { $0.isSameSection(as: $1) }
    }

    /// The index of the section named `name` (compared byte for byte).
    func sectionIndex(of name: String) -> Int? {
        firstIndex { $0.isSameSection(as: name) }
    }

    /// The first name that appears twice (compared byte for byte), or `nil` when every name is unique.
    var repeatedSectionName: String? {
        var seen = Set<SectionName>(minimumCapacity: count)
        return first { !seen.insert(SectionName($0)).inserted }
    }
}
