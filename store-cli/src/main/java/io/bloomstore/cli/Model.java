package io.bloomstore.cli;

import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Range;

/**
 * Shorthands for picocli's programmatic model, in which every command declares its options and
 * operands. Not picocli's annotations: reading them makes the JDK generate a proxy class per
 * annotation type at run time, which class-data sharing cannot archive on JDK 17, a noticeable share
 * of a one-key query's start-up (docs/BENCHMARKS.md, "CLI start-up").
 *
 * <p>Each argument writes its value into a field of the command through a {@code Consumer}. The
 * arguments have no initial value for picocli to reset them to: every run parses into new command
 * objects, whose fields start as their declarations say.
 */
final class Model {
    private Model() {
    }

    /** A command that runs {@code command}, with the usage-help layout every bloomstore command has. */
    static CommandSpec command(Object command, String... description) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command);
        spec.usageMessage().sortOptions(false).description(description);
        return spec;
    }

    /** An option taking a value of {@code type}, which picocli hands to {@code into}. */
    static <T> OptionSpec.Builder option(Class<T> type, Consumer<? super T> into, String... names) {
        Binding<T> binding = new Binding<>(into);
        return OptionSpec.builder(names).type(type).getter(binding).setter(binding).hasInitialValue(false);
    }

    /** An option without a value; {@code into} receives true when it is given. */
    static OptionSpec.Builder flag(Consumer<Boolean> into, String... names) {
        return option(boolean.class, into, names);
    }

    /** The required operand at {@code index}. */
    static <T> PositionalParamSpec.Builder operand(int index, String label, Class<T> type, Consumer<? super T> into) {
        Binding<T> binding = new Binding<>(into);
        return PositionalParamSpec.builder().index(Integer.toString(index)).paramLabel(label).type(type).required(true)
                .getter(binding).setter(binding).hasInitialValue(false);
    }

    /**
     * The operands from {@code index} on, as a list of {@code element}; required when {@code arity}
     * (e.g. "0..*", "2..*") asks for at least one.
     */
    static <E> PositionalParamSpec.Builder operands(int index, String arity, String label, Class<E> element,
            Consumer<List<E>> into) {
        Binding<List<E>> binding = new Binding<>(into);
        return PositionalParamSpec.builder().index(index + "..*").arity(arity).required(Range.valueOf(arity).min() > 0)
                .paramLabel(label).type(List.class).auxiliaryTypes(element)
                .getter(binding).setter(binding).hasInitialValue(false);
    }

    /**
     * Where picocli keeps an argument's value: handed to the command as it is set, and read back by
     * picocli itself (it adds a list's elements to the list it set before).
     */
    private static final class Binding<T> implements IGetter, ISetter {
        private final Consumer<? super T> into;
        private T value;

        Binding(Consumer<? super T> into) {
            this.into = into;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> V get() {
            return (V) value;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> V set(V newValue) {
            V previous = (V) value;
            value = (T) newValue;
            into.accept(value);
            return previous;
        }
    }
}
