package io.paynotify.statements;

import io.paynotify.core.notify.Provider;
import io.paynotify.provider.BillSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.EnumMap;
import java.util.Map;

/** Each provider's {@link BillSource} bean, found by its {@code provider()} (as the active query finds its queries). */
@ApplicationScoped
public class BillSources {

    private final Map<Provider, BillSource> sources = new EnumMap<>(Provider.class);

    @Inject
    BillSources(Instance<BillSource> all) {
        all.forEach(s -> sources.put(s.provider(), s));
    }

    /** For tests that replace the sources. */
    protected BillSources() {}

    /** The provider's bill source, or null when this build has none. */
    public BillSource source(Provider provider) {
        return sources.get(provider);
    }
}
