/// A scene problem, named by where it is: a JSON path (`layers[3].frame`) or a file.
public struct ComposeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Where: a JSON path (`layers[3].frame`) or a file.
    public let subject: String
    /// What is wrong.
    public let message: String

    /// `subject: message`.
    public init(_ subject: String, _ message: String) {
        self.subject = subject
        self.message = message
    }

    public var description: String { subject.isEmpty ? message : "\(subject): \(message)" }
}
