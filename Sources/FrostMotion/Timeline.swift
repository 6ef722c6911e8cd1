/// What drives a motion scene: a scroll offset in points, a time in seconds, or the device's
/// attitude, pitch and roll in radians (as Core Motion's `CMAttitude` gives them).
public enum Driver: String, Sendable, CaseIterable {
    /// The scroll offset in points.
    case scroll
    /// Seconds.
    case time
    /// The device's pitch in radians.
    case pitch
    /// The device's roll in radians.
    case roll
}

/// The driver values at which a scene is seen: every driver, one of them (or, for a tilt
/// trace, time, pitch and roll together) sweeping.
public struct DriverState: Sendable, Equatable {
    /// The scroll offset in points (negative: pulled down).
    public var scroll: Double
    /// Seconds.
    public var time: Double
    /// The device's pitch in radians.
    public var pitch: Double
    /// The device's roll in radians.
    public var roll: Double
    /// Every driver at its value (0 by default).
    public init(scroll: Double = 0, time: Double = 0, pitch: Double = 0, roll: Double = 0) {
        (self.scroll, self.time, self.pitch, self.roll) = (scroll, time, pitch, roll)
    }

    /// One driver's value.
    public subscript(driver: Driver) -> Double {
        get {
            switch driver {
            case .scroll: scroll
            case .time: time
            case .pitch: pitch
            case .roll: roll
            }
        }
        set {
            switch driver {
            case .scroll: scroll = newValue
            case .time: time = newValue
            case .pitch: pitch = newValue
            case .roll: roll = newValue
            }
        }
    }
}

/// The frames of an animation: a scroll from `from` to `to` in `frames` evenly spaced offsets
/// (both ends included); a time from 0 to `duration` at `fps` (frame k at k/fps, and a last
/// frame at the duration itself); or a recorded attitude trace played at `fps` (frame k at time
/// k/fps from the trace's first row, its pitch and roll interpolated there, and a last frame at
/// the trace's end).
public enum Timeline: Sendable, Equatable {
    /// `frames` offsets from `from` to `to` points, both ends included.
    case scroll(from: Double, to: Double, frames: Int)
    /// `duration` seconds at `fps` frames per second.
    case time(duration: Double, fps: Double)
    /// A recorded attitude played at `fps`.
    case tilt(trace: TiltTrace, fps: Double)

    /// The driver that keys without their own follow: the scroll or the time (a trace's clock).
    public var driver: Driver {
        switch self {
        case .scroll: .scroll
        case .time, .tilt: .time
        }
    }

    /// Frames per second of playback for a time or a trace; nil for a scroll.
    public var fps: Double? {
        switch self {
        case .scroll: nil
        case .time(_, let fps), .tilt(_, let fps): fps
        }
    }

    /// The driver value of every frame, in order (for a trace, its time from the first row).
    public var values: [Double] {
        switch self {
        case .scroll(let from, let to, let frames):
            guard frames > 1, frames <= 100_000 else { return [from] }
            return (0..<frames).map { k in k == frames - 1 ? to : from + (to - from) * Double(k) / Double(frames - 1) }
        case .time(let duration, let fps):
            return Self.times(duration: duration, fps: fps)
        case .tilt(let trace, let fps):
            return Self.times(duration: trace.duration, fps: fps)
        }
    }

    /// 0, 1/fps, 2/fps … and the duration itself when it falls between two frames. Values
    /// `validate()` refuses give the first frame alone rather than a trap.
    private static func times(duration: Double, fps: Double) -> [Double] {
        let count = duration * fps + 1e-9
        guard fps > 0, duration >= 0, count.isFinite, count <= 100_000 else { return [0] }
        let whole = Int(count.rounded(.down))
        var times = (0...whole).map { Double($0) / fps }
        if duration - times[times.count - 1] > 1e-9 { times.append(duration) }
        return times
    }

    /// Frame k's driver state, the other drivers held at `other`.
    public func states(other: DriverState = DriverState()) -> [DriverState] {
        values.map { v in
            var state = other
            state[driver] = v
            if case .tilt(let trace, _) = self {
                (state.pitch, state.roll) = trace.attitude(at: v)
            }
            return state
        }
    }
}
