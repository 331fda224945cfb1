import type * as Leaflet from 'leaflet';
import { useEffect, useId, useRef, useState } from 'react';
import type { Event } from '../../core/contract/event';
import type { RunMapReply } from '../../core/contract/run-map';
import { fetchRunMap } from '../client/run-map';

/**
 * A run's in-person events on a map, beside the list (which stays the primary view and works without it).
 * Nothing shows while the server's map is off (MAP_TILE_URL unset) or no event could be placed. Leaflet
 * loads only when the person asks for the map.
 */
export function RunMap({ timerId, runId, events }: { timerId: number; runId: number; events: Event[] }) {
  const id = useId();
  const inPerson = events.some((e) => e.online !== true && (e.city || e.venue));
  const [reply, setReply] = useState<RunMapReply | null>(null);
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const box = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!inPerson) return;
    let live = true;
    fetchRunMap(timerId, runId)
      .then((r) => live && setReply(r))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [timerId, runId, inPerson]);

  useEffect(() => {
    if (!shown || !reply?.tile_url || !box.current) return;
    const element = box.current;
    let remove = () => {};
    import('leaflet')
      .then(async ({ default: L }) => {
        // The clustering plugin extends the global L that Leaflet sets, so it loads after Leaflet.
        await import('leaflet.markercluster');
        const map = L.map(element, { scrollWheelZoom: false, maxZoom: 18 });
        L.tileLayer(reply.tile_url!, { attribution: reply.attribution, maxZoom: 18 }).addTo(map);
        // Pins are focusable markers (Leaflet gives them tabindex and opens a bound tooltip on focus as on
        // hover), so their labels reach keyboard users too; the pin is a styled div, no image to fetch.
        const icon = L.divIcon({ className: 'run-map__pin', iconSize: [18, 18] });
        const markers = reply.points.map((p) => {
          const label = `${p.title} (${p.place})`;
          return L.marker([p.lat, p.lng], { icon, keyboard: true, title: label, alt: label }).bindTooltip(label);
        });
        // Events in one place (one city puts them on one spot) show as one round count; a click or Enter on it
        // zooms in, or spreads the pins out where they share a spot.
        const clusters = L.markerClusterGroup({
          showCoverageOnHover: false,
          maxClusterRadius: 40,
          iconCreateFunction: (cluster) => clusterIcon(L, cluster),
        });
        clusters.addLayers(markers).addTo(map);
        map.fitBounds(L.featureGroup(markers).getBounds(), { padding: [24, 24], maxZoom: 11 });
        remove = () => map.remove();
      })
      .catch((err: Error) => setFailure(`The map could not be shown: ${err.message}`));
    return () => remove();
  }, [shown, reply]);

  if (!reply?.tile_url || reply.points.length === 0) return null;
  const label = `Map of ${reply.points.length} in-person event${reply.points.length === 1 ? '' : 's'}: ${reply.points.map((p) => p.title).join(', ')}`;
  return (
    <div className="run-map">
      <button
        type="button"
        className="button button--secondary button--small"
        aria-expanded={shown}
        aria-controls={`${id}-map`}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? 'Hide map' : 'Show on a map'}
      </button>
      {failure ? <p className="timer-run__error">{failure}</p> : null}
      {shown ? <section id={`${id}-map`} ref={box} className="run-map__box" aria-label={label} /> : null}
    </div>
  );
}

/**
 * A cluster's round count, named for screen readers and on hover ("2 events: …"); Leaflet makes it a focusable
 * button as it does the pins.
 */
function clusterIcon(L: typeof Leaflet, cluster: Leaflet.MarkerCluster): Leaflet.DivIcon {
  const count = cluster.getChildCount();
  const titles = cluster.getAllChildMarkers().map((m) => m.options.title);
  const label = `${count} events: ${titles.join('; ')}`;
  const icon = L.divIcon({ className: 'run-map__cluster', html: `<span aria-hidden="true">${count}</span>`, iconSize: [32, 32] });
  const create = icon.createIcon.bind(icon);
  icon.createIcon = (old) => {
    const element = create(old);
    element.setAttribute('aria-label', label);
    element.title = label;
    return element;
  };
  return icon;
}
